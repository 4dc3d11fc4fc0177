/**
 * `svc serve`: runs the HTTP API over the real dependencies (built by `createServer`, src/server.ts). SIGINT or SIGTERM
 * shuts down gracefully: the server stops accepting and drains in-flight requests, the model service stops, running
 * computations settle, the compute pool closes, and the database closes last.
 */
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../../config.js';
import { ValidationError } from '../../errors.js';
import { createServer } from '../../server.js';
import type { Command } from '../command.js';

export { geocoderFor } from '../../server.js';

const USAGE = `Usage: svc serve [--port N] [--host HOST] [--data DIR] [--db FILE]

Serves the /v1 API. Flags override the environment (SVC_PORT, SVC_HOST, SVC_DATA_DIR, SVC_DB); every other setting
is read from SVC_* variables (docs/operations.md). Stop with Ctrl-C or SIGTERM: in-flight requests finish first.`;

function port(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new ValidationError(`--port must be a whole number, got '${value}'.`);
  return Number(value);
}

/** Resolves on the first SIGINT or SIGTERM. */
function shutdownSignal(): Promise<NodeJS.Signals> {
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

/** `svc serve`. */
export const serveCommand: Command = {
  path: ['serve'],
  summary: 'Run the HTTP API',
  usage: USAGE,
  async run(args) {
    const { values } = parseArgs({
      args,
      strict: true,
      options: { port: { type: 'string' }, host: { type: 'string' }, data: { type: 'string' }, db: { type: 'string' } },
    });
    const config = loadConfig(process.env, { port: port(values.port), host: values.host, dataDir: values.data, dbFile: values.db });
    return runServer(config);
  },
};

/** Serves the API with `config` until SIGINT or SIGTERM, then shuts down gracefully; returns the exit code. */
export async function runServer(config: Config): Promise<number> {
  const server = await createServer(config);
  const stopped = shutdownSignal();
  let address: string;
  try {
    address = await server.app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await server.close();
    throw err;
  }
  console.log(`svc-api ${config.version} listening on ${address} (docs ${config.docsUrl}, data ${config.dataDir})`);

  const signal = await stopped;
  console.log(`${signal}: draining in-flight requests…`);
  await server.close();
  console.log('stopped');
  return 0;
}
