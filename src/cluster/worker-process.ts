/**
 * A compute worker process's parts: its link to NATS, its own Piscina pool over its own data directory, the handlers
 * of every task kind it serves, and the loop that pulls tasks. `svc worker` runs one; tests run them in-process too.
 *
 * Task kinds come from `WORKER_TASK_KINDS`: each entry builds the handlers of some kinds from the worker's parts. The
 * compute kinds are the first entry; another product adds its kinds (e.g. `report`) by adding an entry.
 */
import { availableParallelism } from 'node:os';
import { createPoolExecutor } from '../compute/local-compute.js';
import { TASK_KINDS_TASK } from '../compute/tasks/thread-tasks.js';
import { dataLocation } from '../store/data-location.js';
import { Lifecycle } from '../util/lifecycle.js';
import { SILENT_LOGGER, type Logger } from '../util/logger.js';
import { plannedCompute, type PlannedCompute, type TaskExecutor } from '../compute/planned-compute.js';
import { computeTaskHandlers } from './compute-handlers.js';
import { ClusterLink } from './nats-connection.js';
import { randomId } from './task-queue.js';
import type { TaskHandler } from './task-types.js';
import { startWorkerLoop, type WorkerLoop } from './worker-loop.js';

/** What a worker offers the builders of task handlers. */
export interface WorkerParts {
  readonly workerId: string;
  /** The worker's own data directory or base URL (tasks never carry one). */
  readonly dataDir: string;
  /** The worker's compute pool. */
  readonly executor: TaskExecutor;
  /** The compute facade over the worker's own pool (statistics, surroundings) for handlers that gather more. */
  readonly compute: PlannedCompute;
  readonly link: ClusterLink;
  readonly log: Logger;
  /** Registers what to close when the worker stops: after its tasks are done, before its pool and link close. */
  onStop(close: () => Promise<void>): void;
}

/** Builds the handlers of some task kinds. */
export type TaskKindsFactory = (parts: WorkerParts) => Map<string, TaskHandler> | Promise<Map<string, TaskHandler>>;

/** The compute task kinds every worker serves; `svc worker` adds the report kind (src/nodes/report-task-runtime.ts). */
export const WORKER_TASK_KINDS: TaskKindsFactory[] = [(parts) => computeTaskHandlers(parts.executor, parts.dataDir, parts.workerId)];

/** Options of `startWorkerNode`. */
export interface WorkerNodeOptions {
  readonly natsUrl: string;
  readonly dataDir: string;
  /** Compute threads, also the tasks held at once (default: the number of cores). */
  readonly threads?: number;
  /** Consumer limits this worker sets up when it is the first to connect. */
  readonly ackWaitMs: number;
  readonly maxDeliver: number;
  /** Grace period of a stop for in-flight tasks, ms. */
  readonly graceMs?: number;
  /** How long a finished task's result waits for a lost link to return (`SVC_NATS_OUTAGE_MS`), ms; default 60 s. */
  readonly outageMs?: number;
  readonly log?: Logger;
  /** Task kinds to serve; default WORKER_TASK_KINDS. */
  readonly kinds?: readonly TaskKindsFactory[];
  /** Accept fault-injection tasks in the pool (tests of crash handling only). */
  readonly allowFaultInjection?: boolean | undefined;
}

/** A running worker. */
export interface WorkerNode {
  readonly workerId: string;
  readonly loop: WorkerLoop;
  /**
   * Graceful stop, once (later calls share the first): pulls no more, finishes or hands back tasks, closes what the
   * task kinds registered, then the pool and the link. Every step runs even if one fails; failures are logged.
   */
  stop(): Promise<void>;
}

/**
 * Starts a worker (connecting in the background; it pulls once NATS is reachable). What it starts is registered on one
 * lifecycle as it starts, so a failure part-way and `stop()` release the same things in the same (reverse) order: the
 * loop, then what the task kinds registered (last first), then the compute pool, then the link.
 */
export async function startWorkerNode(options: WorkerNodeOptions): Promise<WorkerNode> {
  const workerId = randomId();
  const log = options.log ?? SILENT_LOGGER;
  const threads = options.threads ?? availableParallelism();
  const life = new Lifecycle(log);
  return life.start(async () => {
    const link = ClusterLink.start({
      url: options.natsUrl, name: `svc-worker ${workerId}`, ackWaitMs: options.ackWaitMs, maxDeliver: options.maxDeliver, log,
    });
    life.defer('cluster link', () => link.close());
    const pool = createPoolExecutor(threads, { allowFaultInjection: options.allowFaultInjection });
    life.defer('compute pool', () => pool.close());
    // The kinds this worker serves are the ones its compute threads have registered: asked once, before any handler.
    const executor: TaskExecutor = { ...pool, servedKinds: await pool.run(TASK_KINDS_TASK, { kind: 'task-kinds' }) };
    const dataDir = dataLocation(options.dataDir).absolute().href;
    const parts: WorkerParts = {
      workerId, dataDir, executor, compute: plannedCompute(executor, { dataDir }), link, log,
      onStop: (close) => life.defer('task kind', close),
    };
    const handlers = new Map<string, TaskHandler>();
    for (const factory of options.kinds ?? WORKER_TASK_KINDS) {
      for (const [kind, handler] of await factory(parts)) handlers.set(kind, handler);
    }
    const loop = startWorkerLoop({
      link, handlers, concurrency: threads, workerId, graceMs: options.graceMs, outageBoundMs: options.outageMs, log,
    });
    life.defer('worker loop', () => loop.stop());
    return { workerId, loop, stop: () => life.close() };
  });
}
