/**
 * The requester side of the work queue on JetStream. A task is published to `svc.task.<kind>` with `Nats-Msg-Id` =
 * its id (a task published again within the stream's duplicate window is queued once) and the header `Svc-Result-To`
 * = `svc.result.<requesterId>.<taskId>`; its result arrives on a core subscription to `svc.result.<requesterId>.>`
 * (workers publish results into the `SVC_RESULTS` stream, so a result that arrived while nobody listened can be read
 * back: a duplicate publish looks there first).
 *
 * Failure contract: NATS down → `UpstreamError` at once (the link is not waited for); the connection lost while a
 * result is awaited → `UpstreamError` at once; no result by the deadline → `UpstreamTimeoutError` (the task itself is
 * not withdrawn); the task reached the consumer's delivery limit (workers died or gave it back every time, seen through
 * the JetStream max-deliveries advisory) → `UpstreamError` "failed on N deliveries".
 */
import { randomBytes } from 'node:crypto';
import { headers as natsHeaders, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { errorFromData, ServiceError, UpstreamError, UpstreamTimeoutError, ValidationError, type SerializedError } from '../errors.js';
import type { ClusterLink, ClusterConnection } from './nats-connection.js';
import { MAX_DELIVERIES_ADVISORY, RESULT_STREAM, RESULT_SUBJECT_PREFIX, RESULT_TO_HEADER, resultSubject, taskSubject } from './names.js';
import type { TaskOptions, TaskQueue } from './task-types.js';

/** Header of a result message: `ok` (the payload is the handler's bytes) or `error` (a JSON `SerializedError`). */
export const OUTCOME_HEADER = 'Svc-Outcome';
/** Header of a result message: the delivery of the task that produced it (1 = first). */
export const DELIVERY_HEADER = 'Svc-Delivery';

/** Ids of tasks and requesters: one NATS subject token. */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** A fresh random id (tasks, requesters, workers). */
export function randomId(): string {
  return randomBytes(9).toString('base64url');
}

/** Options of `NatsTaskQueue`. */
export interface NatsTaskQueueOptions {
  readonly link: ClusterLink;
  /** This requester's id (result subjects); default a fresh random one. A coordinator that resumes reuses its id. */
  readonly requesterId?: string;
  /** Deadline of a request when its options name none, ms. */
  readonly defaultTimeoutMs: number;
}

interface Pending {
  readonly resolve: (bytes: Uint8Array) => void;
  readonly reject: (err: Error) => void;
  seq?: number;
}

/** Builds the result of a result message: its bytes, or the error the worker sent as data. */
function outcomeOf(data: Uint8Array, outcome: string | undefined): Uint8Array | ServiceError {
  if (outcome === 'ok') return data;
  try {
    return errorFromData(JSON.parse(Buffer.from(data).toString('utf8')) as SerializedError);
  } catch {
    return new UpstreamError('A worker sent a result this node cannot read; sender and receiver may run different versions.');
  }
}

/** `TaskQueue` over `SVC_TASKS` / `SVC_RESULTS`. */
export class NatsTaskQueue implements TaskQueue {
  /** The id in this requester's result subjects. */
  readonly requesterId: string;
  readonly #pending = new Map<string, Pending>();
  readonly #bySeq = new Map<number, string>();
  #wired: NatsConnection | undefined;
  #subs: Subscription[] = [];

  constructor(private readonly options: NatsTaskQueueOptions) {
    this.requesterId = options.requesterId ?? randomId();
    if (!ID_PATTERN.test(this.requesterId)) throw new ValidationError('A requester id is 1–128 letters, digits, - or _.');
  }

  /** Tasks awaiting a result. */
  get pending(): number {
    return this.#pending.size;
  }

  async request(kind: string, payload: Uint8Array, options: TaskOptions = {}): Promise<Uint8Array> {
    const conn = this.#connection(payload);
    const id = this.#taskId(options.id);
    if (this.#pending.has(id)) throw new ValidationError(`Task ${id} is already awaited by this requester.`);
    const timeoutMs = options.timeoutMs ?? this.options.defaultTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const result = new Promise<Uint8Array>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      timer = setTimeout(() => {
        reject(new UpstreamTimeoutError(`No compute worker answered task ${kind} within ${Math.round(timeoutMs / 1000)} s; it stays queued.`));
      }, timeoutMs);
      if (options.signal) {
        onAbort = () => reject(options.signal!.reason instanceof Error ? options.signal!.reason : new Error('aborted'));
        if (options.signal.aborted) onAbort();
        else options.signal.addEventListener('abort', onAbort, { once: true });
      }
    });
    const cleanup = () => {
      clearTimeout(timer);
      if (onAbort) options.signal?.removeEventListener('abort', onAbort);
      const seq = this.#pending.get(id)?.seq;
      if (seq !== undefined) this.#bySeq.delete(seq);
      this.#pending.delete(id);
    };
    result.then(cleanup, cleanup);
    const resultTo = resultSubject(this.requesterId, id);
    try {
      const h = natsHeaders();
      h.set(RESULT_TO_HEADER, resultTo);
      const ack = await conn.js.publish(taskSubject(kind), payload, { msgID: id, headers: h, timeout: Math.min(timeoutMs, 5_000) });
      const entry = this.#pending.get(id);
      if (entry !== undefined) {
        entry.seq = ack.seq;
        this.#bySeq.set(ack.seq, id);
      }
      // Published before (a resumed requester): its result may already be stored.
      if (ack.duplicate) await this.#readStoredResult(conn, resultTo, id);
    } catch (err) {
      this.#pending.get(id)?.reject(new UpstreamError('The compute cluster (NATS) did not accept the task; retrying is reasonable.', { cause: err }));
    }
    return result;
  }

  async submit(kind: string, payload: Uint8Array, options: Pick<TaskOptions, 'id'> = {}): Promise<void> {
    const conn = this.#connection(payload);
    try {
      await conn.js.publish(taskSubject(kind), payload, { msgID: this.#taskId(options.id), timeout: 5_000 });
    } catch (err) {
      throw new UpstreamError('The compute cluster (NATS) did not accept the task; retrying is reasonable.', { cause: err });
    }
  }

  /** Stops listening; awaited results fail with `UpstreamError`. */
  close(): void {
    this.#failAll('This node is shutting down.');
    for (const sub of this.#subs) sub.unsubscribe();
    this.#subs = [];
    this.#wired = undefined;
  }

  #taskId(id: string | undefined): string {
    const taskId = id ?? randomId();
    if (!ID_PATTERN.test(taskId)) throw new ValidationError('A task id is 1–128 letters, digits, - or _.');
    return taskId;
  }

  /** The live connection, subscribed for results; throws `UpstreamError` while NATS is down or the payload is too big. */
  #connection(payload: Uint8Array): ClusterConnection {
    const conn = this.options.link.require();
    if (this.#wired !== conn.nc) this.#wire(conn.nc);
    const max = conn.nc.info?.max_payload;
    if (max !== undefined && payload.byteLength > max - 4_096) {
      throw new UpstreamError(
        `A task of ${payload.byteLength} bytes exceeds the NATS server's max_payload (${max} bytes); raise max_payload in ` +
          'the server configuration (8MB covers every task this service sends).',
      );
    }
    return conn;
  }

  /** Subscribes to this requester's results and the max-deliveries advisory on `nc`, and follows its status. */
  #wire(nc: NatsConnection): void {
    for (const sub of this.#subs) sub.unsubscribe();
    this.#wired = nc;
    this.#subs = [
      nc.subscribe(`${RESULT_SUBJECT_PREFIX}.${this.requesterId}.>`, {
        callback: (err, msg) => {
          if (err) return;
          this.#settle(msg.subject.slice(msg.subject.lastIndexOf('.') + 1), msg.data, msg.headers?.get(OUTCOME_HEADER));
        },
      }),
      nc.subscribe(MAX_DELIVERIES_ADVISORY, {
        callback: (err, msg) => {
          if (err) return;
          const advisory = msg.json<{ stream_seq?: number; deliveries?: number }>();
          const id = advisory.stream_seq === undefined ? undefined : this.#bySeq.get(advisory.stream_seq);
          if (id === undefined) return;
          this.#pending.get(id)?.reject(new UpstreamError(
            `The compute task failed on ${advisory.deliveries ?? 'all its'} deliveries (each worker stopped or gave it back ` +
              'before finishing); it is not retried again.',
          ));
        },
      }),
    ];
    void (async () => {
      for await (const status of nc.status()) {
        if (status.type === 'disconnect' && this.#wired === nc) {
          this.#failAll('The connection to the compute cluster (NATS) was lost while waiting for a result; retrying is reasonable.');
        }
      }
    })();
  }

  #settle(id: string, data: Uint8Array, outcome: string | undefined): void {
    const entry = this.#pending.get(id);
    if (entry === undefined) return;
    const value = outcomeOf(data, outcome);
    if (value instanceof Error) entry.reject(value);
    else entry.resolve(value);
  }

  /** Settles `id` from `SVC_RESULTS` when its result was stored before this requester listened. */
  async #readStoredResult(conn: ClusterConnection, subject: string, id: string): Promise<void> {
    try {
      const msg = await conn.jsm.streams.getMessage(RESULT_STREAM, { last_by_subj: subject });
      if (msg !== null) this.#settle(id, msg.data, msg.header?.get(OUTCOME_HEADER));
    } catch {
      // Not stored yet: the result arrives on the subscription.
    }
  }

  #failAll(detail: string): void {
    for (const entry of [...this.#pending.values()]) entry.reject(new UpstreamError(detail));
  }
}
