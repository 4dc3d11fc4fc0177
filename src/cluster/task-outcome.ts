/**
 * What the worker loop does with a task once its work has settled, as pure functions: `classifyTask` turns how the work
 * settled into a verdict (hand the task back, acknowledge it as already answered, or answer it), and `answerMessage`
 * turns an answer into the bytes published to the result subject.
 *
 * A value is the answer. A `ServiceError` is the answer too, delivered as data. Any other failure hands the task back
 * for another delivery (possibly on another worker), except on the last delivery, where the failure is the answer, as
 * an `UpstreamError` "failed on N deliveries". A task aborted (the worker stopping, or a delivery it cannot read) is
 * handed back at once.
 */
import { errorToData, ServiceError, UpstreamError } from '../errors.js';

/** How a task's work settled. */
export type SettledTask =
  | { readonly state: 'done'; readonly bytes: Uint8Array }
  /** A redelivery whose result was already stored (its acknowledgement was lost): not run again. */
  | { readonly state: 'already-answered' }
  | { readonly state: 'failed'; readonly error: unknown }
  | { readonly state: 'aborted' };

/** A task's answer: its result's bytes, or a service error delivered as data. */
export type TaskOutcome = { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false; readonly error: ServiceError };

/** What the worker does with a settled task. */
export type TaskVerdict =
  /** `nak`: another delivery takes it; `failure` says why when the work failed (logged), absent when it was aborted. */
  | { readonly action: 'hand-back'; readonly failure?: string }
  /** Acknowledged without publishing anything: the stored result is the answer. */
  | { readonly action: 'acknowledge' }
  /** Published to the result subject, then acknowledged. */
  | { readonly action: 'answer'; readonly outcome: TaskOutcome };

/** The verdict on a task that settled as `settled` on delivery number `delivery` of at most `maxDeliver`. */
export function classifyTask(settled: SettledTask, delivery: number, maxDeliver: number): TaskVerdict {
  switch (settled.state) {
    case 'done':
      return { action: 'answer', outcome: { ok: true, bytes: settled.bytes } };
    case 'already-answered':
      return { action: 'acknowledge' };
    case 'aborted':
      return { action: 'hand-back' };
    case 'failed': {
      const { error } = settled;
      if (error instanceof ServiceError) return { action: 'answer', outcome: { ok: false, error } };
      const message = (error as Error)?.message ?? String(error);
      if (delivery < maxDeliver) return { action: 'hand-back', failure: message };
      return { action: 'answer', outcome: { ok: false, error: new UpstreamError(`The compute task failed on ${delivery} deliveries: ${message}`) } };
    }
  }
}

/** Room left in a NATS message for its headers, bytes. */
const HEADER_ROOM = 4_096;

/**
 * The bytes that carry `outcome` of a `kind` task to the result subject, under a server whose `max_payload` is
 * `maxPayload` (undefined: unknown). A result too large to publish would fail on every delivery, so it becomes an
 * error the operator can act on; the outcome returned is the one the bytes carry.
 */
export function answerMessage(outcome: TaskOutcome, kind: string, maxPayload: number | undefined): { outcome: TaskOutcome; data: Uint8Array } {
  let carried = outcome;
  if (outcome.ok && maxPayload !== undefined && outcome.bytes.byteLength > maxPayload - HEADER_ROOM) {
    carried = { ok: false, error: new UpstreamError(
      `The result of a ${kind} task (${outcome.bytes.byteLength} bytes) exceeds the NATS server's max_payload ` +
        `(${maxPayload} bytes); raise max_payload in the server configuration (e.g. 8MB).`,
    ) };
  }
  const data = carried.ok ? carried.bytes : Buffer.from(JSON.stringify(errorToData(carried.error)));
  return { outcome: carried, data };
}
