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
 *
 * A requester that rides out outages (`outage` set: a precompute coordinator) instead keeps its tasks through a lost
 * connection: requests made meanwhile wait; when the link is back it settles each awaited task from the result stored
 * meanwhile, leaves alone those still queued, and queues again (same id) only those the server lost; after
 * `outage.boundMs` down, every awaited task fails with `UpstreamError` naming the bound and `outage.advice`.
 */
import { randomBytes } from 'node:crypto';
import { headers as natsHeaders, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { errorFromData, ServiceError, UpstreamError, UpstreamTimeoutError, ValidationError, type SerializedError } from '../errors.js';
import type { ClusterLink, ClusterConnection } from './nats-connection.js';
import { MAX_DELIVERIES_ADVISORY, RESULT_SUBJECT_PREFIX, RESULT_TO_HEADER, resultSubject, taskSubject } from './names.js';
import { storedResult, taskStillQueued } from './stored-tasks.js';
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
  /** Ride out a lost connection for up to `boundMs` instead of failing at once; `advice` ends the error after it. */
  readonly outage?: { readonly boundMs: number; readonly advice: string };
}

interface Pending {
  readonly resolve: (bytes: Uint8Array) => void;
  readonly reject: (err: Error) => void;
  readonly kind: string;
  readonly payload: Uint8Array;
  readonly resultTo: string;
  readonly publishTimeoutMs: number;
  /** The task's sequence in `SVC_TASKS` once the stream stored it. */
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
  /** Times the link came back (an outage-riding requester): a publish that failed across one is left to recovery. */
  #returns = 0;
  #outageTimer: NodeJS.Timeout | undefined;
  readonly #unlisten: () => void = () => {};

  constructor(private readonly options: NatsTaskQueueOptions) {
    this.requesterId = options.requesterId ?? randomId();
    if (!ID_PATTERN.test(this.requesterId)) throw new ValidationError('A requester id is 1–128 letters, digits, - or _.');
    if (options.outage !== undefined) this.#unlisten = options.link.onChange((conn) => this.#linkChanged(conn));
  }

  /** Tasks awaiting a result. */
  get pending(): number {
    return this.#pending.size;
  }

  async request(kind: string, payload: Uint8Array, options: TaskOptions = {}): Promise<Uint8Array> {
    const riding = this.options.outage !== undefined;
    // Fails at once while NATS is down, unless this requester rides out outages (then the task waits for the link).
    const conn = riding ? this.#rideOutConnection() : this.#connection(payload);
    const id = this.#taskId(options.id);
    if (this.#pending.has(id)) throw new ValidationError(`Task ${id} is already awaited by this requester.`);
    const timeoutMs = options.timeoutMs ?? this.options.defaultTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const resultTo = resultSubject(this.requesterId, id);
    const result = new Promise<Uint8Array>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, kind, payload, resultTo, publishTimeoutMs: Math.min(timeoutMs, 5_000) });
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
    if (conn !== undefined) await this.#publish(conn, id);
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
    this.#unlisten();
    clearTimeout(this.#outageTimer);
    this.#failAll('This node is shutting down.');
    for (const sub of this.#subs) sub.unsubscribe();
    this.#subs = [];
    this.#wired = undefined;
  }

  /**
   * Publishes awaited task `id` on `conn` (again, after an outage: the same id is queued once within the duplicate
   * window) and settles it from the stored result when it was published before. A failure rejects it, except for a
   * requester riding out outages when the link went down or came back meanwhile: recovery then publishes it again.
   */
  async #publish(conn: ClusterConnection, id: string): Promise<void> {
    const entry = this.#pending.get(id);
    if (entry === undefined) return;
    const returns = this.#returns;
    try {
      this.#checkSize(conn, entry.payload);
      if (this.#wired !== conn.nc) this.#wire(conn.nc);
      const h = natsHeaders();
      h.set(RESULT_TO_HEADER, entry.resultTo);
      const ack = await conn.js.publish(taskSubject(entry.kind), entry.payload, { msgID: id, headers: h, timeout: entry.publishTimeoutMs });
      if (entry.seq !== undefined) this.#bySeq.delete(entry.seq);
      entry.seq = ack.seq;
      this.#bySeq.set(ack.seq, id);
      // Published before (a resumed requester, or again after an outage): its result may already be stored.
      if (ack.duplicate) await this.#readStoredResult(conn, entry.resultTo, id);
    } catch (err) {
      if (err instanceof ServiceError) entry.reject(err);
      else if (this.options.outage !== undefined && (this.options.link.current() !== conn || this.#returns !== returns)) return;
      else entry.reject(new UpstreamError('The compute cluster (NATS) did not accept the task; retrying is reasonable.', { cause: err }));
    }
  }

  /** The live connection of a requester riding out outages: undefined while down, an error once down too long. */
  #rideOutConnection(): ClusterConnection | undefined {
    const conn = this.options.link.current();
    const since = this.options.link.downSince();
    if (conn === undefined && since !== undefined && Date.now() - since >= this.options.outage!.boundMs) throw this.#outageError();
    return conn;
  }

  #outageError(): UpstreamError {
    const { boundMs, advice } = this.options.outage!;
    return new UpstreamError(`The compute cluster (NATS) has been unreachable for ${Math.round(boundMs / 1000)} s, longer than this run waits. ${advice}`);
  }

  /** An outage-riding requester's view of the link: a bound while it is down, recovery once it is back. */
  #linkChanged(conn: ClusterConnection | undefined): void {
    clearTimeout(this.#outageTimer);
    if (conn === undefined) {
      this.#outageTimer = setTimeout(() => {
        const error = this.#outageError();
        for (const entry of [...this.#pending.values()]) entry.reject(error);
      }, this.options.outage!.boundMs);
      return;
    }
    this.#returns++;
    if (this.#wired !== conn.nc) this.#wire(conn.nc);
    for (const id of [...this.#pending.keys()]) void this.#recover(conn, id);
  }

  /**
   * After the link came back: settles `id` from its stored result, leaves it be while it is still queued, and
   * publishes it again when the server lost it (stored-tasks.ts gives the order that makes this safe). A failure
   * (the link lost again) leaves it to the next recovery.
   */
  async #recover(conn: ClusterConnection, id: string): Promise<void> {
    try {
      const entry = this.#pending.get(id);
      if (entry === undefined || await this.#readStoredResult(conn, entry.resultTo, id)) return;
      if (entry.seq !== undefined && await taskStillQueued(conn, entry.seq, id)) return;
      if (await this.#readStoredResult(conn, entry.resultTo, id)) return;
      await this.#publish(conn, id);
    } catch {
      // Down again: the next return of the link recovers it.
    }
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
    this.#checkSize(conn, payload);
    return conn;
  }

  /** Throws `UpstreamError` when `payload` exceeds the server's `max_payload` (less room for headers). */
  #checkSize(conn: ClusterConnection, payload: Uint8Array): void {
    const max = conn.nc.info?.max_payload;
    if (max !== undefined && payload.byteLength > max - 4_096) {
      throw new UpstreamError(
        `A task of ${payload.byteLength} bytes exceeds the NATS server's max_payload (${max} bytes); raise max_payload in ` +
          'the server configuration (8MB covers every task this service sends).',
      );
    }
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
        if (status.type === 'disconnect' && this.#wired === nc && this.options.outage === undefined) {
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

  /** Settles `id` from `SVC_RESULTS` when its result was stored before this requester listened; true when it did. */
  async #readStoredResult(conn: ClusterConnection, subject: string, id: string): Promise<boolean> {
    let msg;
    try {
      msg = await storedResult(conn, subject);
    } catch (err) {
      // Cannot tell (the link lost again): an outage-riding requester asks again on the next return.
      if (this.options.outage !== undefined) throw err;
      return false;
    }
    if (msg === undefined) return false;
    this.#settle(id, msg.data, msg.header?.get(OUTCOME_HEADER));
    return true;
  }

  #failAll(detail: string): void {
    for (const entry of [...this.#pending.values()]) entry.reject(new UpstreamError(detail));
  }
}
