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
 * without running again. Pulling resumes by itself on the reconnected (or new) connection. `stop()`: pulls no more, lets in-flight tasks finish within
 * the grace period, then aborts the rest and naks them so another worker takes them at once.
 */
import type { JsMsg } from '@nats-io/jetstream';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { errorToData, ServiceError, UpstreamError } from '../errors.js';
import { SILENT_LOGGER, type Logger } from '../util/logger.js';
import { acrossOutages, confirmAck } from './across-outages.js';
import type { ClusterLink } from './nats-connection.js';
import { storedResult } from './stored-tasks.js';
import { RESULT_TO_HEADER, TASK_STREAM, TASK_SUBJECT_PREFIX, WORKER_CONSUMER } from './names.js';
import { DELIVERY_HEADER, OUTCOME_HEADER } from './task-queue.js';
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
  readonly graceMs?: number;
  /** How long a finished task's result and acknowledgement wait for a lost link to return, ms (default 60 s). */
  readonly outageBoundMs?: number;
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

/** The context of a delivered task; ids are read from the message when first asked for. */
function deliveryContext(msg: JsMsg, signal: AbortSignal, maxDeliver: number, workerId: string): TaskContext {
  return {
    get taskId() {
      return msg.headers?.get('Nats-Msg-Id') || `seq-${msg.seq}`;
    },
    get deliveryCount() {
      return msg.info.deliveryCount;
    },
    maxDeliver, workerId, signal,
    progress: () => msg.working(),
  };
}

/** Starts pulling tasks in the background (waiting for NATS while it is down). */
export function startWorkerLoop(options: WorkerLoopOptions): WorkerLoop {
  const log = options.log ?? SILENT_LOGGER;
  const graceMs = options.graceMs ?? 10_000;
  const outageBoundMs = options.outageBoundMs ?? 60_000;
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

  async function handle(msg: JsMsg, ackWaitMs: number, maxDeliver: number): Promise<void> {
    // The handler starts first: everything else (ids, heartbeat, the result's headers) is done while it runs, so a
    // short task's path from NATS to the compute thread and back holds no more than it must.
    const kind = msg.subject.slice(TASK_SUBJECT_PREFIX.length + 1);
    const controller = new AbortController();
    const context = deliveryContext(msg, controller.signal, maxDeliver, options.workerId);
    const handler = options.handlers.get(kind);
    const work = (async (): Promise<Uint8Array | typeof ALREADY_ANSWERED> => {
      if (handler === undefined) throw new Error(`worker ${options.workerId} has no handler for task kind '${kind}'`);
      // A redelivery may follow an acknowledgement lost with the server (the result stored, the ack not): not run twice.
      const to = msg.redelivered ? msg.headers?.get(RESULT_TO_HEADER) : undefined;
      if (to && (await acrossOutages(options.link, outageBoundMs, (conn) => storedResult(conn, to))) !== undefined) return ALREADY_ANSWERED;
      return handler(msg.data, context);
    })();
    // Observed by the race below; this keeps a failure during the set-up from leaving it unhandled.
    work.catch(() => {});
    inFlight.set(msg, controller);
    computing++;
    let released = false;
    // Frees the task's slot once its result is on its way (or it is handed back), so the next fetch overlaps with
    // delivering the result without going out before it.
    const release = () => {
      if (released) return;
      released = true;
      computing--;
      slotFreed();
    };
    let heartbeat: NodeJS.Timeout | undefined;
    let taskId: string;
    let delivery: number;
    let resultTo: string | undefined;
    const h = natsHeaders();
    try {
      ({ taskId, deliveryCount: delivery } = context);
      resultTo = msg.headers?.get(RESULT_TO_HEADER) || undefined;
      h.set(DELIVERY_HEADER, String(delivery));
      heartbeat = setInterval(() => working(msg), Math.max(250, Math.floor(ackWaitMs / 3)));
    } catch (err) {
      // A delivery this worker cannot read: stop the task, hand it back, keep the slot until the thread is free.
      log.warn({ kind, err: (err as Error).message }, 'unreadable task delivery; handed back');
      controller.abort(err);
      await work.catch(() => {});
      msg.nak();
      release();
      return;
    }
    try {
      let outcome: { ok: true; bytes: Uint8Array } | { ok: false; error: ServiceError };
      let answered = false;
      try {
        // A handler that does not heed the signal is still let go of when the worker hands the task back.
        const aborted = new Promise<never>((_, reject) => {
          controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), { once: true });
        });
        const value = await Promise.race([work, aborted]);
        answered = value === ALREADY_ANSWERED;
        outcome = { ok: true, bytes: value === ALREADY_ANSWERED ? new Uint8Array(0) : value };
      } catch (err) {
        if (controller.signal.aborted) {
          msg.nak();
          return;
        }
        if (err instanceof ServiceError) {
          outcome = { ok: false, error: err };
        } else if (delivery < maxDeliver) {
          log.warn({ task: taskId, kind, delivery, err: (err as Error).message }, 'task failed; handed back for another delivery');
          msg.nak();
          return;
        } else {
          outcome = {
            ok: false,
            error: new UpstreamError(`The compute task failed on ${delivery} deliveries: ${(err as Error).message}`),
          };
        }
      } finally {
        clearInterval(heartbeat);
      }
      if (answered) {
        log.info({ task: taskId, kind, delivery }, 'redelivered task already answered; acknowledged without running it');
      } else if (resultTo !== undefined) {
        try {
          // Kept across an outage: published (again, same id) on the connection the link hands out next.
          await acrossOutages(options.link, outageBoundMs, async ({ js, nc }) => {
            const max = nc.info?.max_payload;
            if (outcome.ok && max !== undefined && outcome.bytes.byteLength > max - 4_096) {
              // Publishing would fail on every delivery: the answer is an error the operator can act on.
              outcome = { ok: false, error: new UpstreamError(
                `The result of a ${kind} task (${outcome.bytes.byteLength} bytes) exceeds the NATS server's max_payload ` +
                  `(${max} bytes); raise max_payload in the server configuration (e.g. 8MB).`,
              ) };
            }
            h.set(OUTCOME_HEADER, outcome.ok ? 'ok' : 'error');
            const data = outcome.ok ? outcome.bytes : Buffer.from(JSON.stringify(errorToData(outcome.error)));
            const published = js.publish(resultTo!, data, { headers: h, msgID: `${taskId}-${delivery}` });
            release();
            await published;
          });
          if (!outcome.ok) log.info({ task: taskId, kind, code: outcome.error.code, err: outcome.error.message }, 'task answered with an error');
        } catch (err) {
          // Left unacknowledged: the task comes back after ack_wait, to this worker or another.
          log.warn({ task: taskId, kind, err: (err as Error).message }, 'result not delivered; the task will be redelivered');
          return;
        }
      }
      release();
      try {
        // Confirmed, and sent again after an outage: an acknowledgement lost with the server would run the task again.
        await acrossOutages(options.link, outageBoundMs, (conn) => confirmAck(conn, msg));
      } catch (err) {
        // The result is stored: a redelivery finds it and is acknowledged without running (see ALREADY_ANSWERED).
        log.warn({ task: taskId, kind, err: (err as Error).message }, 'acknowledgement not confirmed; a redelivery will find the stored result');
      }
      completed++;
    } finally {
      clearInterval(heartbeat);
      release();
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
