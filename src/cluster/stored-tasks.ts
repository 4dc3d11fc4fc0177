/**
 * What JetStream still holds of a task: its result in `SVC_RESULTS` (workers publish results there, so one published
 * while its requester was away can be read back) and the task itself in `SVC_TASKS` (queued or in a worker's hands
 * until the worker acknowledges it, which it does only after its result is stored).
 *
 * Together they let a requester that was cut off from NATS tell, for each task it awaits, whether the result is in,
 * the task is still on its way, or the task is gone without a result (the server lost it: it must be queued again).
 * The order matters: read the result, then look for the task, then read the result once more — a worker stores the
 * result before the task leaves the queue, so a task found gone with no result after it is truly lost.
 */
import type { StoredMsg } from '@nats-io/jetstream';
import type { ClusterConnection } from './nats-connection.js';
import { RESULT_STREAM, TASK_STREAM } from './names.js';

/** The result stored on `subject` (`svc.result.<requesterId>.<taskId>`), or undefined when none is. */
export async function storedResult(conn: ClusterConnection, subject: string): Promise<StoredMsg | undefined> {
  // Null when none is stored; a failure to ask (the connection lost again) is the caller's to handle.
  return (await conn.jsm.streams.getMessage(RESULT_STREAM, { last_by_subj: subject })) ?? undefined;
}

/** Whether task `taskId`, stored at `seq` in `SVC_TASKS`, is still there (queued, or held by a worker). */
export async function taskStillQueued(conn: ClusterConnection, seq: number, taskId: string): Promise<boolean> {
  const msg = await conn.jsm.streams.getMessage(TASK_STREAM, { seq });
  // A server that lost its last messages reuses their sequence numbers: the id must match too.
  return msg !== null && msg.header?.get('Nats-Msg-Id') === taskId;
}
