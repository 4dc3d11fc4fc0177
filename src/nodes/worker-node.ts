/**
 * The worker node `svc worker` runs: a cluster worker (its link, its own compute pool over its own data, the loop
 * pulling tasks: src/cluster/worker-process.ts) serving every compute task kind and the `report` kind, whose runtime is
 * built over the cluster's back ends (report-task-runtime.ts).
 */
import { startWorkerNode, WORKER_TASK_KINDS, type WorkerNode } from '../cluster/worker-process.js';
import type { Config, NatsConfig } from '../config.js';
import type { Logger } from '../util/logger.js';
import { reportTaskKinds } from './report-task-runtime.js';

/** Options of `startWorker`. */
export interface WorkerOptions {
  /** The worker's copy of the datasets: a directory, or an http(s) base URL serving the same files. */
  readonly dataDir: string;
  /** Compute threads, also the tasks held at once (default: the number of cores). */
  readonly threads?: number;
  /** Grace period of a stop for tasks in hand, ms. */
  readonly graceMs?: number;
  readonly logger: Logger;
}

/** Starts a worker node of the cluster `config.nats` names (connecting in the background). */
export function startWorker(config: Config & { nats: NatsConfig }, options: WorkerOptions): Promise<WorkerNode> {
  const { nats } = config;
  return startWorkerNode({
    natsUrl: nats.url, dataDir: options.dataDir, ackWaitMs: nats.ackWaitMs, maxDeliver: nats.maxDeliver, outageMs: nats.outageMs,
    log: options.logger,
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
    ...(options.graceMs !== undefined ? { graceMs: options.graceMs } : {}),
    // Compute tasks, and report jobs: gathered over this worker's pool, rendered in its own threads.
    kinds: [...WORKER_TASK_KINDS, reportTaskKinds(config, options.logger)],
  });
}
