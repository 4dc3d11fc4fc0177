/**
 * The worker side of the work queue: pulls tasks from the durable consumer `svc-workers` (explicit ack), never holding
 * more than `concurrency` at once, runs each with the handler of its kind, publishes the result (JetStream publish,
 * stream ack awaited) to the subject its `Svc-Result-To` header names, and only then acknowledges the task.
 *
 * Outcomes: a value → delivered, acked. A `ServiceError` → delivered as data (the error is the answer), acked. Any other
 * failure, or a kind this worker has no handler for → `nak` (another delivery, possibly on another worker); on the
 * last delivery the failure is delivered instead, as `UpstreamError` "failed on N deliveries". A result that cannot be
 * published leaves the task unacknowledged: it comes back after `ack_wait`. Long tasks report progress every
 * ack_wait/3 so they are not redelivered while they run.
 *
 * Across a broker restart (up to `outageBoundMs` away) nothing is lost or run twice: a result finished while NATS was
 * away is kept and published once the link is back (same message id, so a publish that did land is not stored twice),
 * then the task is acknowledged with the server's confirmation; the tasks in hand report progress as soon as the link
 * returns; and a redelivered task whose result is already stored (its acknowledgement was lost) is acknowledged
 * without running again. Pulling resumes by itself on the reconnected (or new) connection. `stop()`: pulls no more, lets
 * in-flight tasks finish within the grace period, then aborts the rest and naks them so another worker takes them at once.
 *
 * Each task goes classify → deliver → acknowledge: how its work settled becomes a verdict (task-outcome.ts, pure), the
 * answer is published and the task acknowledged (task-delivery.ts); this file holds the slots, the pulling and the stop.
 */
import type { JsMsg } from '@nats-io/jetstream';
import { UpstreamError } from '../errors.js';
import { SILENT_LOGGER, type Logger } from '../util/logger.js';
import { acrossOutages } from './across-outages.js';
import type { ClusterLink } from './nats-connection.js';
import { storedResult } from './stored-tasks.js';
import { RESULT_TO_HEADER, TASK_STREAM, TASK_SUBJECT_PREFIX, WORKER_CONSUMER } from './names.js';
import { acknowledgeTask, deliverAnswer, deliveryContext, readDelivery, type AcrossOutages, type TaskDelivery } from './task-delivery.js';
import { classifyTask, type SettledTask } from './task-outcome.js';
import type { TaskContext, TaskHandler } from './task-types.js';

/** Options of `startWorkerLoop`. */
export interface WorkerLoopOptions {
  readonly link: ClusterLink;
  /** Handlers by task kind (the last token of `svc.task.<kind>`). */
  readonly handlers: ReadonlyMap<string, TaskHandler>;
  /** Tasks held at once (the worker's compute threads). */
  readonly concurrency: number;
  readonly workerId: string;
  /** How long `stop()` lets in-flight tasks finish before handing them back, ms (default 10 s). */
  readonly graceMs?: number | undefined;
  /** How long a finished task's result and acknowledgement wait for a lost link to return, ms (default 60 s). */
  readonly outageBoundMs?: number | undefined;
  readonly log?: Logger;
}

/** A running worker loop. */
export interface WorkerLoop {
  /** Tasks in hand. */
  readonly inFlight: number;
  /** Tasks finished (acked) since the start. */
  readonly completed: number;
  /** Stops pulling, finishes or hands back in-flight tasks, resolves when none is left. */
  stop(): Promise<void>;
}

const FETCH_EXPIRES_MS = 5_000;
/** What a redelivered task's work yields when its result is already stored: acknowledge, do not run or publish. */
const ALREADY_ANSWERED = Symbol('already answered');

/** Starts pulling tasks in the background (waiting for NATS while it is down). */
export function startWorkerLoop(options: WorkerLoopOptions): WorkerLoop {
  const log = options.log ?? SILENT_LOGGER;
  const graceMs = options.graceMs ?? 10_000;
  const outageBoundMs = options.outageBoundMs ?? 60_000;
  const along: AcrossOutages = { link: options.link, boundMs: outageBoundMs, log };
  const inFlight = new Map<JsMsg, AbortController>();
  const running = new Set<Promise<void>>();
  /** Tasks whose handler is still running: the slots a fetch fills (a task delivering its result holds none). */
  let computing = 0;
  let completed = 0;
  let stopping = false;
  let slotFreed: () => void = () => {};
  let fetching: { close(): Promise<void | Error> } | undefined;

  /** Reports progress on a task in hand; a connection closed meanwhile is the link's to replace, not a failure. */
  function working(msg: JsMsg): void {
    try {
      msg.working();
    } catch {
      // Reported again on the next beat, or when the link returns.
    }
  }

  // Back from an outage: every task in hand reports progress at once, before the server's ack_wait hands it out again.
  const unlisten = options.link.onChange((conn) => {
    if (conn !== undefined) for (const msg of inFlight.keys()) working(msg);
  });

  /** Runs one delivered task: starts its work, classifies how it settled, delivers the answer, acknowledges. */
  async function handle(msg: JsMsg, ackWaitMs: number, maxDeliver: number): Promise<void> {
    // The handler starts first: everything else (ids, heartbeat, the result's headers) is done while it runs, so a
    // short task's path from NATS to the compute thread and back holds no more than it must.
    const kind = msg.subject.slice(TASK_SUBJECT_PREFIX.length + 1);
    const controller = new AbortController();
    const context = deliveryContext(msg, controller.signal, maxDeliver, options.workerId);
    const work = startWork(msg, kind, context);
    inFlight.set(msg, controller);
    const slot = holdSlot();
    try {
      let task: TaskDelivery;
      try {
        task = readDelivery(msg, kind, context);
      } catch (err) {
        // A delivery this worker cannot read: stop the task, hand it back, keep the slot until the thread is free.
        log.warn({ kind, err: (err as Error).message }, 'unreadable task delivery; handed back');
        controller.abort(err);
        await work.catch(() => {});
        msg.nak();
        return;
      }
      const verdict = classifyTask(await settle(msg, work, controller.signal, ackWaitMs), task.delivery, maxDeliver);
      if (verdict.action === 'hand-back') {
        if (verdict.failure !== undefined) {
          log.warn({ task: task.taskId, kind, delivery: task.delivery, err: verdict.failure }, 'task failed; handed back for another delivery');
        }
        msg.nak();
        return;
      }
      if (verdict.action === 'acknowledge') {
        log.info({ task: task.taskId, kind, delivery: task.delivery }, 'redelivered task already answered; acknowledged without running it');
      } else if (task.resultTo !== undefined && !(await deliverAnswer(along, task, task.resultTo, verdict.outcome, slot.release))) {
        return;
      }
      slot.release();
      await acknowledgeTask(along, msg, task);
      completed++;
    } finally {
      slot.release();
    }
  }

  /** Starts the task's work: its kind's handler, unless a redelivery finds its result already stored. */
  function startWork(msg: JsMsg, kind: string, context: TaskContext): Promise<Uint8Array | typeof ALREADY_ANSWERED> {
    const handler = options.handlers.get(kind);
    const work = (async (): Promise<Uint8Array | typeof ALREADY_ANSWERED> => {
      if (handler === undefined) throw new Error(`worker ${options.workerId} has no handler for task kind '${kind}'`);
      // A redelivery may follow an acknowledgement lost with the server (the result stored, the ack not): not run twice.
      const to = msg.redelivered ? msg.headers?.get(RESULT_TO_HEADER) : undefined;
      if (to && (await acrossOutages(options.link, outageBoundMs, (conn) => storedResult(conn, to))) !== undefined) return ALREADY_ANSWERED;
      return handler(msg.data, context);
    })();
    // Observed by `settle` (or awaited on a hand-back); this keeps a failure during the set-up from leaving it unhandled.
    work.catch(() => {});
    return work;
  }

  /**
   * Takes a compute slot for a task; `release` frees it once its result is on its way (or it is handed back), so the
   * next fetch overlaps with delivering the result without going out before it. Releasing twice frees it once.
   */
  function holdSlot(): { release(): void } {
    computing++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        computing--;
        slotFreed();
      },
    };
  }

  /** Waits for the task's work, reporting progress meanwhile; a handler that ignores the abort is let go of anyway. */
  async function settle(
    msg: JsMsg, work: Promise<Uint8Array | typeof ALREADY_ANSWERED>, signal: AbortSignal, ackWaitMs: number,
  ): Promise<SettledTask> {
    const heartbeat = setInterval(() => working(msg), Math.max(250, Math.floor(ackWaitMs / 3)));
    try {
      const aborted = new Promise<never>((_, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      });
      const value = await Promise.race([work, aborted]);
      return value === ALREADY_ANSWERED ? { state: 'already-answered' } : { state: 'done', bytes: value };
    } catch (error) {
      return signal.aborted ? { state: 'aborted' } : { state: 'failed', error };
    } finally {
      clearInterval(heartbeat);
    }
  }

  function track(msg: JsMsg, ackWaitMs: number, maxDeliver: number): void {
    const done = handle(msg, ackWaitMs, maxDeliver)
      .catch((err: unknown) => log.warn({ err: (err as Error).message }, 'task handling failed'))
      .finally(() => {
        inFlight.delete(msg);
        running.delete(done);
      });
    running.add(done);
  }

  /** Resolves once fewer than `concurrency` tasks are in hand (or the loop stops). */
  async function slot(): Promise<void> {
    while (!stopping && computing >= options.concurrency) await new Promise<void>((resolve) => (slotFreed = resolve));
  }

  async function pull(): Promise<void> {
    while (!stopping) {
      try {
        // Once per connection: the consumer's limits and handle (a reconnected or new connection starts over here).
        const { js, jsm } = options.link.current() ?? (await options.link.ready());
        const info = await jsm.consumers.info(TASK_STREAM, WORKER_CONSUMER);
        const ackWaitMs = (info.config.ack_wait ?? 30e9) / 1e6;
        const limit = info.config.max_deliver ?? -1;
        const maxDeliver = limit > 0 ? limit : Number.POSITIVE_INFINITY;
        const consumer = await js.consumers.get(TASK_STREAM, WORKER_CONSUMER);
        for (;;) {
          await slot();
          if (stopping) return;
          // Only as many as there are free threads, so idle workers get the rest.
          const batch = await consumer.fetch({ max_messages: options.concurrency - computing, expires: FETCH_EXPIRES_MS });
          fetching = batch;
          for await (const msg of batch) {
            if (stopping) {
              msg.nak();
              continue;
            }
            track(msg, ackWaitMs, maxDeliver);
          }
          fetching = undefined;
        }
      } catch (err) {
        if (stopping) break;
        log.warn({ err: (err as Error).message }, 'pulling tasks failed; retrying');
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  log.info({ worker: options.workerId, concurrency: options.concurrency, kinds: [...options.handlers.keys()] }, 'worker started');
  const pulling = pull();

  return {
    get inFlight() {
      return inFlight.size;
    },
    get completed() {
      return completed;
    },
    async stop() {
      stopping = true;
      unlisten();
      slotFreed();
      await fetching?.close().catch(() => {});
      await pulling;
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.all(running), grace]);
      clearTimeout(timer);
      if (inFlight.size > 0) {
        log.info({ tasks: inFlight.size }, 'handing back tasks still in hand');
        for (const controller of inFlight.values()) controller.abort(new UpstreamError('The worker is stopping.'));
        await Promise.all(running);
      }
    },
  };
}
