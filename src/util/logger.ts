/**
 * The one logger interface of the code base. A line is structured context first, then the message, the argument order
 * of pino, so Fastify's `app.log` (and any pino logger) is a `Logger` as it is. A part that writes only some levels
 * asks for a `Pick<Logger, …>` of it, so callers may hand it less.
 */

/** Structured log lines at the three levels the service writes outside a request. */
export interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** A logger that drops every line: the default of parts whose caller gives none. */
export const SILENT_LOGGER: Logger = Object.freeze({ info: () => {}, warn: () => {}, error: () => {} });
