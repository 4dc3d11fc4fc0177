/**
 * The processes of the cluster benchmark and their CPU time: `svc worker --threads 1` child processes, and CPU seconds
 * (user + system, all threads) read from `/proc/<pid>/stat` for any process, so the benchmark can say where a task's
 * CPU goes — the API node (this process), nats-server and the workers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../src/util/paths.js';

/** Starts `svc worker --threads 1`; resolves once it is connected to NATS. */
export async function startWorker(url: string, dataDir: string, ackWaitMs: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin', 'svc.js'), 'worker', '--nats', url, '--data', dataDir, '--threads', '1'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, SVC_NATS_ACK_WAIT_MS: String(ackWaitMs) },
  });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (d: Buffer) => {
      seen += d.toString();
      if (seen.includes('"msg":"connected to NATS"')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`svc worker exited (${code}): ${seen}`)));
  });
  return child;
}

/** Stops a worker (SIGTERM: it finishes its task and leaves). */
export async function stopWorker(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** CPU seconds used so far by the processes `pids` (user + system, from /proc; 0 where it is not readable). */
export function cpuOf(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Not on Linux: CPU figures stay 0.
    }
  }
  return ticks / 100;
}

/** CPU seconds of the cluster's three parts over a stretch of work. */
export interface CpuSplit {
  readonly apiNode: number;
  readonly nats: number;
  readonly workers: number;
}

/** Measures the CPU each part spends while `fn` runs. */
export async function cpuSplit(natsPid: number, workerPids: readonly number[], fn: () => Promise<void>): Promise<CpuSplit> {
  const api0 = process.cpuUsage();
  const nats0 = cpuOf([natsPid]);
  const workers0 = cpuOf(workerPids);
  await fn();
  const api = process.cpuUsage(api0);
  return { apiNode: (api.user + api.system) / 1e6, nats: cpuOf([natsPid]) - nats0, workers: cpuOf(workerPids) - workers0 };
}

/**
 * How many single-thread workers one API node and one nats-server can keep busy before either needs a whole core:
 * with N workers each busy `workers` CPU-seconds per unit of work, the units flow at N / workers per second, and the
 * API node spends `apiNode` and nats-server `nats` CPU-seconds on each.
 */
export function scalingCeiling(perUnit: CpuSplit): { apiNode: number; nats: number; ceiling: number } {
  const limit = (busy: number) => (busy > 0 ? perUnit.workers / busy : Infinity);
  const apiNode = limit(perUnit.apiNode);
  const nats = limit(perUnit.nats);
  return { apiNode, nats, ceiling: Math.min(apiNode, nats) };
}
