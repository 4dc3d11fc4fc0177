/**
 * A JetStream nats-server on a free loopback port for one benchmark run (the Debian package; `scripts/system-deps.sh`
 * installs it): started with its own store directory, ready once a cluster link has set up every stream and bucket,
 * and removed with its store by `stop()`.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClusterLink } from '../src/cluster/nats-connection.js';

/** A running benchmark nats-server. */
export interface BenchNats {
  /** `nats://127.0.0.1:<port>`. */
  readonly url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Starts the server and waits until the cluster's infrastructure exists on it. */
export async function startBenchNats(limits: { ackWaitMs: number; maxDeliver: number }): Promise<BenchNats> {
  const port = await freePort();
  const store = await mkdtemp(join(tmpdir(), 'svc-bench-nats-'));
  const child = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', store], { stdio: 'ignore' });
  const url = `nats://127.0.0.1:${port}`;
  const probe = ClusterLink.start({ url, name: 'bench-probe', ...limits, retryMs: 50 });
  await probe.ready();
  await probe.close();
  return {
    url,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      await rm(store, { recursive: true, force: true });
    },
  };
}
