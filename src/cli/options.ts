/** Option parsing shared by the `svc` commands: every bad value becomes a `ValidationError` naming the option. */
import { loadConfig, type Config } from '../config.js';
import { ValidationError } from '../errors.js';

/** Parses a whole-number option ≥ `min`, or returns `fallback` when absent. */
export function parseCount(name: string, value: string | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min) {
    throw new ValidationError(`--${name} must be an integer ≥ ${min}, got '${value}'.`);
  }
  return n;
}

/** Parses a finite number option, or returns undefined when absent. */
export function parseNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new ValidationError(`--${name} must be a number, got '${value}'.`);
  return n;
}

/** The `parseArgs` options of the commands that serve the API (`serve`, `demo`). */
export const SERVER_OPTIONS = {
  port: { type: 'string' }, host: { type: 'string' }, data: { type: 'string' }, db: { type: 'string' },
} as const;

/** The configuration with the server flags applied over the environment. */
export function serverConfig(values: { port?: string; host?: string; data?: string; db?: string }): Config {
  const port = values.port === undefined ? undefined : parseCount('port', values.port, 0);
  return loadConfig(process.env, { port, host: values.host, dataDir: values.data, dbFile: values.db });
}

/** Resolves on the first SIGINT or SIGTERM. */
export function shutdownSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}
