/**
 * `svc serve`: runs the HTTP API over the real dependencies (the API node `createServer` builds,
 * src/nodes/api-node.ts). SIGINT or SIGTERM shuts down gracefully: the server stops accepting and drains in-flight
 * requests, report jobs in hand are queued again for the next start, the model service stops, running computations
 * settle, the back ends close, and the database closes last.
 */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { selfDocsUrl } from '../../api/docs-location.js';
import type { Config } from '../../config.js';
import { createServer } from '../../nodes/api-node.js';
import type { Command } from '../command.js';
import { SERVER_OPTIONS, serverConfig, shutdownSignal } from '../options.js';

const USAGE = `Usage: svc serve [--port N] [--host HOST] [--data DIR] [--db FILE]

Serves the /v1 API. Flags override the environment (SVC_PORT, SVC_HOST, SVC_DATA_DIR, SVC_DB); every other setting
is read from SVC_* variables (docs/operations.md). Stop with Ctrl-C or SIGTERM: in-flight requests finish first.`;

/** `svc serve`. */
export const serveCommand: Command = {
  path: ['serve'],
  summary: 'Run the HTTP API',
  usage: USAGE,
  async run(args) {
    const { values } = parseArgs({ args, strict: true, options: SERVER_OPTIONS });
    return runServer(serverConfig(values));
  },
};

/** Where a started server can be reached, for the start-up banner. */
export interface Listening {
  /** Origin a local client reaches the server at, e.g. `http://127.0.0.1:8080` (`localhost` for every interface). */
  readonly origin: string;
  /** The documentation root (SVC_DOCS_URL, or the server's own /docs). */
  readonly docsUrl: string;
}

/**
 * Serves the API with `config` until SIGINT or SIGTERM, then shuts down gracefully; returns the exit code. `banner`
 * may print more once the server listens (its address is known only then when the port is 0).
 */
export async function runServer(config: Config, banner?: (at: Listening) => void | Promise<void>): Promise<number> {
  const server = await createServer(config);
  const stopped = shutdownSignal();
  let address: string;
  try {
    address = await server.app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await server.close();
    throw err;
  }
  const bound = server.app.server.address() as AddressInfo;
  const at: Listening = { origin: new URL(selfDocsUrl(bound.address, bound.port)).origin, docsUrl: server.app.docs.url };
  console.log(`svc-api ${config.version} listening on ${address} (data ${config.dataDir})`);
  console.log(`Documentation: ${at.docsUrl}`);
  console.log(`Geocoder: ${server.geocoderSource}`);
  if (server.app.docs.self && at.origin.includes('//localhost:') && config.host !== 'localhost') {
    console.log('(listening on every interface: set SVC_DOCS_URL to the address clients elsewhere use)');
  }
  try {
    await banner?.(at);
  } catch (err) {
    await server.close();
    throw err;
  }

  const signal = await stopped;
  console.log(`${signal}: draining in-flight requests…`);
  await server.close();
  console.log('stopped');
  return 0;
}
