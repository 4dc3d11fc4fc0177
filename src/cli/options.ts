/**
 * Option parsing shared by the `svc` commands: every bad value becomes a `ValidationError` naming the option. Also
 * the one place in src/ that reads the process's environment (`processConfig`); every command gets its configuration
 * from here and hands on what its parts need (test/conventions/process-env.test.ts).
 */
import { loadConfig, type Config, type ConfigOverrides } from '../config.js';
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

/**
 * The configuration of this process: its environment with `overrides` from a command's flags on top. `variables`
 * are values a flag gives a variable (`svc worker --nats URL` is `SVC_NATS_URL`), read and checked as if the
 * environment held them, so a bad one is named like the variable.
 */
export function processConfig(overrides: ConfigOverrides = {}, variables: Readonly<Record<string, string>> = {}): Config {
  return loadConfig({ ...process.env, ...variables }, overrides);
}

/** The configuration with the server flags applied over the environment. */
export function serverConfig(values: { port?: string; host?: string; data?: string; db?: string }): Config {
  const port = values.port === undefined ? undefined : parseCount('port', values.port, 0);
  return processConfig({ port, host: values.host, dataDir: values.data, dbFile: values.db });
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
