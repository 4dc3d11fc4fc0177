/**
 * A delivered task as the worker loop sees it: its context and ids read from the message, its answer published to the
 * subject its `Svc-Result-To` header names (JetStream publish, stream ack awaited), and its acknowledgement confirmed.
 * The answer and the acknowledgement are kept across an outage of up to `boundMs` and sent on the connection the link
 * hands out next (the answer under the same message id, so a publish that did land is not stored twice).
 */
import type { JsMsg } from '@nats-io/jetstream';
import { headers as natsHeaders } from '@nats-io/transport-node';
import type { Logger } from '../util/logger.js';
import { acrossOutages, confirmAck } from './across-outages.js';
import { RESULT_TO_HEADER } from './names.js';
import type { ClusterLink } from './nats-connection.js';
import { DELIVERY_HEADER, OUTCOME_HEADER } from './task-queue.js';
import { answerMessage, type TaskOutcome } from './task-outcome.js';
import type { TaskContext } from './task-types.js';

/** What a delivery says of its task: its id, which delivery this is, where its answer goes. */
export interface TaskDelivery {
  readonly kind: string;
  readonly taskId: string;
  readonly delivery: number;
  /** The subject of the answer (`Svc-Result-To`); a task without one is only acknowledged. */
  readonly resultTo: string | undefined;
}

/** How answers and acknowledgements wait out a lost link, and where their failures are logged. */
export interface AcrossOutages {
  readonly link: ClusterLink;
  readonly boundMs: number;
  readonly log: Logger;
}

/** The context of a delivered task; ids are read from the message when first asked for. */
export function deliveryContext(msg: JsMsg, signal: AbortSignal, maxDeliver: number, workerId: string): TaskContext {
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

/** Reads the delivery's headers and counters; throws when the message cannot be read as a task delivery. */
export function readDelivery(msg: JsMsg, kind: string, context: TaskContext): TaskDelivery {
  const { taskId, deliveryCount: delivery } = context;
  return { kind, taskId, delivery, resultTo: msg.headers?.get(RESULT_TO_HEADER) || undefined };
}

/**
 * Publishes the task's answer to `resultTo`; `sent` is called once the publish is under way. False when it could not
 * be delivered: the task is then left unacknowledged and comes back after ack_wait, to this worker or another.
 */
export async function deliverAnswer(
  along: AcrossOutages, task: TaskDelivery, resultTo: string, outcome: TaskOutcome, sent: () => void,
): Promise<boolean> {
  const headers = natsHeaders();
  headers.set(DELIVERY_HEADER, String(task.delivery));
  let answered = outcome;
  try {
    await acrossOutages(along.link, along.boundMs, async ({ js, nc }) => {
      const message = answerMessage(outcome, task.kind, nc.info?.max_payload);
      answered = message.outcome;
      headers.set(OUTCOME_HEADER, answered.ok ? 'ok' : 'error');
      const published = js.publish(resultTo, message.data, { headers, msgID: `${task.taskId}-${task.delivery}` });
      sent();
      await published;
    });
  } catch (err) {
    along.log.warn({ task: task.taskId, kind: task.kind, err: (err as Error).message }, 'result not delivered; the task will be redelivered');
    return false;
  }
  if (!answered.ok) {
    along.log.info({ task: task.taskId, kind: task.kind, code: answered.error.code, err: answered.error.message }, 'task answered with an error');
  }
  return true;
}

/** Acknowledges the task, confirmed: an acknowledgement lost with the server would have it run again. */
export async function acknowledgeTask(along: AcrossOutages, msg: JsMsg, task: TaskDelivery): Promise<void> {
  try {
    await acrossOutages(along.link, along.boundMs, (conn) => confirmAck(conn, msg));
  } catch (err) {
    // The result is stored: a redelivery finds it and is acknowledged without running it again.
    along.log.warn({ task: task.taskId, kind: task.kind, err: (err as Error).message }, 'acknowledgement not confirmed; a redelivery will find the stored result');
  }
}
