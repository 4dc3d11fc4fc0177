/**
 * Queues tasks whose outcome nobody awaits (`TaskQueue.submit`): a JetStream publish to `svc.task.<kind>` with the
 * task id as `Nats-Msg-Id`, so publishing the same id again within the stream's duplicate window (2 minutes) queues
 * it once. Resolves once the stream stored the task; `UpstreamError`/`UpstreamTimeoutError` when NATS cannot.
 */
import type { TaskQueue } from './task-types.js';
import { BucketOpener, STATE_DEADLINE_MS } from './kv-ops.js';
import { taskSubject } from './names.js';
import type { ClusterLink } from './nats-connection.js';

/** The submitting half of a task queue. */
export type TaskSubmitter = Pick<TaskQueue, 'submit'>;

/** `submit` over JetStream, for processes that queue work without awaiting results (report jobs). */
export class JetStreamTaskSubmitter implements TaskSubmitter {
  readonly #link: ClusterLink;
  readonly #ops: BucketOpener;

  constructor(link: ClusterLink, deadlineMs = STATE_DEADLINE_MS) {
    this.#link = link;
    this.#ops = new BucketOpener(link, deadlineMs);
  }

  async submit(kind: string, payload: Uint8Array, options: { readonly id?: string } = {}): Promise<void> {
    await this.#ops.run(`queueing a ${kind} task`, async () => {
      const { js } = this.#link.require();
      await js.publish(taskSubject(kind), payload, options.id === undefined ? {} : { msgID: options.id });
    });
  }
}
