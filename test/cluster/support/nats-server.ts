/**
 * A real Debian `nats-server` with JetStream on loopback, for the cluster tests: started on a free port with its own
 * store directory, and restartable on the same port and store (a restart keeps streams, buckets and messages).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect as connectTcp } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running (or stopped) test nats-server. */
export interface TestNatsServer {
  /** `nats://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGTERM, then SIGKILL; or SIGKILL at once: a crash); the store directory is kept. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Starts it again on the same port and store. */
  start(): Promise<void>;
  /** Stops it and removes the store directory. */
  dispose(): Promise<void>;
  /** The running server's process id (CPU accounting in benchmarks); undefined while stopped. */
  pid(): number | undefined;
}

/** Whether the nats-server binary can be run here. */
export const NATS_SERVER_BIN = process.env.NATS_SERVER_BIN ?? 'nats-server';

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

/** Resolves once something accepts TCP connections on the port (the server is ready for clients). */
async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nats-server exited with code ${child.exitCode} before listening on ${port}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connectTcp(port, '127.0.0.1');
      socket.once('connect', () => { socket.destroy(); resolve(true); });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts a nats-server with JetStream on a free loopback port; `extraArgs` are appended (e.g. `--max_payload`). */
export async function startNatsServer(extraArgs: readonly string[] = []): Promise<TestNatsServer> {
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'svc-nats-'));
  let child: ChildProcess | undefined;
  let stderr = '';
  const start = async (): Promise<void> => {
    stderr = '';
    const proc = spawn(NATS_SERVER_BIN, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir, ...extraArgs], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    proc.stderr!.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-4_000); });
    child = proc;
    try {
      await waitForPort(port, proc);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${stderr}`);
    }
  };
  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> => {
    const proc = child;
    child = undefined;
    if (proc === undefined || proc.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill(signal);
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    start,
    stop,
    pid: () => child?.pid,
    dispose: async () => {
      await stop();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
