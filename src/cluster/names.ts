/**
 * Every name the cluster shares on NATS: streams, subjects, the workers' consumer, KV and object-store buckets.
 * API nodes, workers and the precompute coordinator of one deployment must agree on all of them, so they live here
 * and nowhere else. Bucket and stream names are fixed: one NATS account serves one deployment.
 */

/** Work-queue stream of compute tasks (each message is consumed by exactly one worker). */
export const TASK_STREAM = 'SVC_TASKS';
/** Subject prefix of tasks: `svc.task.<kind>`. */
export const TASK_SUBJECT_PREFIX = 'svc.task';
/** Durable pull consumer every worker shares on `TASK_STREAM`. */
export const WORKER_CONSUMER = 'svc-workers';

/** Stream of task results (limits retention), so a requester that restarts can read what arrived meanwhile. */
export const RESULT_STREAM = 'SVC_RESULTS';
/** Subject prefix of results: `svc.result.<requesterId>.<taskId>`. */
export const RESULT_SUBJECT_PREFIX = 'svc.result';

/** Header naming the subject a task's result goes to. */
export const RESULT_TO_HEADER = 'Svc-Result-To';

/** KV bucket of per-key rate-limit windows (one key per API key and minute). */
export const RATE_BUCKET = 'svc_rate';
/** KV bucket of per-key daily report quotas (one key per API key and UTC day). */
export const QUOTA_BUCKET = 'svc_quota';
/** KV bucket of cached historical statistics (values: the cache's JSON records). */
export const STATS_BUCKET = 'svc_stats';
/** KV bucket of single-flight claims: one computation per cache key across all API nodes. */
export const FLIGHT_BUCKET = 'svc_flight';
/** KV bucket of report job state. */
export const JOBS_BUCKET = 'svc_jobs';
/** KV bucket of report idempotency keys. */
export const IDEMPOTENCY_BUCKET = 'svc_idem';
/** Object-store bucket of report files (HTML and PDF). */
export const REPORTS_OBJECT_BUCKET = 'svc_reports';

/** The subject of a task of `kind`. */
export function taskSubject(kind: string): string {
  return `${TASK_SUBJECT_PREFIX}.${kind}`;
}

/** The subject of the result of `taskId` for `requesterId`. */
export function resultSubject(requesterId: string, taskId: string): string {
  return `${RESULT_SUBJECT_PREFIX}.${requesterId}.${taskId}`;
}

/** The JetStream advisory published when a task of the workers' consumer reaches its delivery limit. */
export const MAX_DELIVERIES_ADVISORY = `$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${TASK_STREAM}.${WORKER_CONSUMER}`;
