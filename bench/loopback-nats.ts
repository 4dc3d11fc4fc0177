/**
 * A JetStream nats-server on a free loopback port for one benchmark run: the tests' starter (the Debian package;
 * `scripts/system-deps.sh` installs it), ready once a cluster link has set up every stream and bucket, and removed with
 * its store by `stop()`.
 */
import { ClusterLink } from '../src/cluster/nats-connection.js';
import { startNatsServer } from '../test/cluster/support/nats-server.js';

/** A running benchmark nats-server. */
export interface BenchNats {
  /** `nats://127.0.0.1:<port>`. */
  readonly url: string;
  /** The server's process id (its CPU time is read from /proc). */
  readonly pid: number;
  stop(): Promise<void>;
}

/** Starts the server and waits until the cluster's infrastructure exists on it. */
export async function startBenchNats(limits: { ackWaitMs: number; maxDeliver: number }): Promise<BenchNats> {
  const server = await startNatsServer();
  const probe = ClusterLink.start({ url: server.url, name: 'bench-probe', ...limits, retryMs: 50 });
  await probe.ready();
  await probe.close();
  return { url: server.url, pid: server.pid()!, stop: () => server.dispose() };
}
