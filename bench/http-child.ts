/**
 * A server process of the HTTP benchmark (bench/http.ts forks it; run as `node dist/bench/http-child.js <role> ...`):
 *
 * - `service <dataDir> <dbFile> [<overrides JSON>]`: the real service, built by `createServer` as `svc serve` builds it
 *   (SQLite file, local compute pool, embedded geocoder and model service, reports), logging off, with optional
 *   configuration overrides (bench/reports.ts sets the reports directory and the PDF wait); on `'key'` it issues a
 *   fresh secret key with the highest limits an operator may give (1,000,000 requests per minute and reports per day)
 *   and answers with it (a `ChildKey`);
 * - `hello`: the yardstick, a bare Fastify app (logging off) with one route, `GET /hello` → `{"hello":"world"}`.
 *
 * Both listen on 127.0.0.1 at an ephemeral port and talk to the parent over IPC: they send a `ChildReady`, answer
 * `'cpu'` with their CPU time so far (a `ChildCpu`), and on `'stop'` shut down gracefully and exit.
 */
import Fastify from 'fastify';
import { loadConfig, type ConfigOverrides } from '../src/config.js';
import { createServer } from '../src/nodes/api-node.js';

/** Sent once the server listens. */
export interface ChildReady {
  readonly type: 'ready';
  readonly url: string;
}

/** Answer to `'key'`: a freshly issued API key (service only). */
export interface ChildKey {
  readonly type: 'key';
  readonly key: string;
}

/** Answer to `'cpu'`: user + system CPU time of the whole process (all threads) since it started, microseconds. */
export interface ChildCpu {
  readonly type: 'cpu';
  readonly micros: number;
}

/** What the parent may send. */
export type ChildCommand = 'cpu' | 'key' | 'stop';

/** Starts the server of `role`; returns its URL, how it issues keys (service only) and its shutdown. */
async function start(role: string, args: string[]): Promise<{ url: string; issue?: () => string; close: () => Promise<void> }> {
  if (role === 'hello') {
    const app = Fastify({ logger: false });
    app.get('/hello', async () => ({ hello: 'world' }));
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    return { url, close: () => app.close() };
  }
  if (role === 'service' && (args.length === 2 || args.length === 3)) {
    const [dataDir, dbFile, overrides] = args;
    const extra = overrides === undefined ? {} : (JSON.parse(overrides) as ConfigOverrides);
    const server = await createServer(loadConfig({}, { logLevel: 'silent', dataDir, dbFile, port: 0, ...extra }));
    const issue = () =>
      server.keys.create({ type: 'sk', label: 'bench', ratePerMin: 1_000_000, reportsPerDay: 1_000_000 }, new Date()).key;
    const url = await server.app.listen({ host: '127.0.0.1', port: 0 });
    return { url, issue, close: () => server.close() };
  }
  throw new Error(`usage: http-child.js hello | service <dataDir> <dbFile> [<overrides JSON>] (got ${[role, ...args].join(' ')})`);
}

async function main(): Promise<void> {
  if (process.send === undefined) throw new Error('http-child.js runs as a forked child of bench/http.ts (it needs IPC).');
  const [role, ...args] = process.argv.slice(2);
  const server = await start(role, args);
  process.on('message', (message: ChildCommand) => {
    if (message === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send!({ type: 'cpu', micros: user + system } satisfies ChildCpu);
    } else if (message === 'key') {
      if (server.issue === undefined) throw new Error(`The ${role} server issues no keys.`);
      process.send!({ type: 'key', key: server.issue() } satisfies ChildKey);
    } else if (message === 'stop') {
      void server.close().then(() => process.exit(0));
    }
  });
  // The parent is gone (crashed or killed): do not linger.
  process.on('disconnect', () => void server.close().then(() => process.exit(0)));
  process.send({ type: 'ready', url: server.url } satisfies ChildReady);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : String(err));
  process.exit(1);
});
