/**
 * The contract between the code that queues tasks on `SVC_TASKS` and the workers that run them. Payloads are bytes:
 * each task kind owns its encoding (compute/tasks/task-codec.ts for compute tasks), so large typed arrays cross NATS as raw bytes.
 * Errors cross as data (`ServiceError` codes and details, rebuilt with `errorFromData`), never as thrown strings.
 */

/** What a worker knows about the delivery of the task it runs. */
export interface TaskContext {
  /** The task's id (also its `Nats-Msg-Id`, so a re-published task is not queued twice). */
  readonly taskId: string;
  /** 1 on the first delivery; more after a worker died or handed the task back. */
  readonly deliveryCount: number;
  /** Deliveries allowed (`SVC_NATS_MAX_DELIVER`); on the last one a handler should fail for good rather than retry. */
  readonly maxDeliver: number;
  /** Tells NATS the task is still being worked on (resets its ack deadline); long handlers call it regularly. */
  progress(): void;
  /** Aborted when the worker stops and hands the task back. */
  readonly signal: AbortSignal;
  /** Id of the worker process (logs). */
  readonly workerId: string;
}

/**
 * Runs one task of a kind on a worker. Resolves with the result bytes (sent to the requester named by the task, if
 * any; then the task is acknowledged) or rejects; a `ServiceError` rejection is delivered to the requester as data and
 * the task acknowledged (the error is the answer), any other rejection hands the task back for another delivery.
 */
export type TaskHandler = (payload: Uint8Array, context: TaskContext) => Promise<Uint8Array>;

/** Options of one queued task. */
export interface TaskOptions {
  /** Task id; default a fresh random one. A stable id makes re-publishing idempotent within the duplicate window. */
  readonly id?: string;
  /** Rejects with `UpstreamTimeoutError` when no result arrived in time (the task itself is not withdrawn). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** The requester side of the queue. */
export interface TaskQueue {
  /** Queues a task and resolves with its result bytes (or rejects with the error the worker sent as data). */
  request(kind: string, payload: Uint8Array, options?: TaskOptions): Promise<Uint8Array>;
  /** Queues a task whose result nobody awaits (its handler records the outcome itself, e.g. a report job). */
  submit(kind: string, payload: Uint8Array, options?: Pick<TaskOptions, 'id'>): Promise<void>;
}
