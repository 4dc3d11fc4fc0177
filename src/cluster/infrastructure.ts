/**
 * Creates, idempotently, every stream, consumer and bucket the cluster uses (names in names.ts). Any node may run it at
 * any time: existing ones are updated to the configured limits, never emptied.
 */
import { AckPolicy, DeliverPolicy, JetStreamApiError, RetentionPolicy, StorageType, type JetStreamManager } from '@nats-io/jetstream';
import type { Kvm } from '@nats-io/kv';
import type { Objm } from '@nats-io/obj';
import { nanos } from '@nats-io/transport-node';
import {
  FLIGHT_BUCKET, IDEMPOTENCY_BUCKET, JOBS_BUCKET, QUOTA_BUCKET, RATE_BUCKET, REPORTS_OBJECT_BUCKET, RESULT_STREAM,
  RESULT_SUBJECT_PREFIX, STATS_BUCKET, TASK_STREAM, TASK_SUBJECT_PREFIX, WORKER_CONSUMER,
} from './names.js';

/** Limits of the work queue (`SVC_NATS_ACK_WAIT_MS`, `SVC_NATS_MAX_DELIVER`). */
export interface InfrastructureOptions {
  /** How long a worker may hold a task without acknowledging it or reporting progress before it is redelivered, ms. */
  readonly ackWaitMs: number;
  /** Deliveries of a task before it fails for good. */
  readonly maxDeliver: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Backstop life of an idempotency key: a job accepted, finished within two days, then kept 30 days. */
const IDEMPOTENCY_MAX_AGE_MS = 32 * DAY_MS;
/** Backstop life of a report file in the object store, from its write. */
const REPORTS_MAX_AGE_MS = 31 * DAY_MS;
/** JetStream's "stream not found" API error code. */
const STREAM_NOT_FOUND = 10059;
/** JetStream's "consumer not found" API error code. */
const CONSUMER_NOT_FOUND = 10014;

/** The handles the set-up needs. */
export interface InfrastructureHandles {
  readonly jsm: JetStreamManager;
  readonly kvm: Kvm;
  readonly objm: Objm;
}

function isApiError(err: unknown, code: number): boolean {
  return err instanceof JetStreamApiError && err.code === code;
}

async function ensureStream(jsm: JetStreamManager, config: Parameters<JetStreamManager['streams']['add']>[0]): Promise<void> {
  try {
    await jsm.streams.info(config.name);
  } catch (err) {
    if (!isApiError(err, STREAM_NOT_FOUND)) throw err;
    await jsm.streams.add(config);
    return;
  }
  const { name, retention: _fixed, storage: _alsoFixed, ...mutable } = config;
  await jsm.streams.update(name, mutable);
}

/** Sets up the task queue, results, KV buckets and the report object store. */
export async function ensureClusterInfrastructure(handles: InfrastructureHandles, options: InfrastructureOptions): Promise<void> {
  const { jsm, kvm, objm } = handles;
  await ensureStream(jsm, {
    name: TASK_STREAM,
    subjects: [`${TASK_SUBJECT_PREFIX}.>`],
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    // Tasks carry `Nats-Msg-Id` = task id: a task published again within this window is not queued twice.
    duplicate_window: nanos(2 * MINUTE_MS),
  });
  await ensureStream(jsm, {
    name: RESULT_STREAM,
    subjects: [`${RESULT_SUBJECT_PREFIX}.>`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: nanos(15 * MINUTE_MS),
    duplicate_window: nanos(2 * MINUTE_MS),
  });
  const consumer = {
    durable_name: WORKER_CONSUMER,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(options.ackWaitMs),
    max_deliver: options.maxDeliver,
    max_ack_pending: -1,
  };
  try {
    await jsm.consumers.info(TASK_STREAM, WORKER_CONSUMER);
    await jsm.consumers.update(TASK_STREAM, WORKER_CONSUMER, { ack_wait: consumer.ack_wait, max_deliver: consumer.max_deliver });
  } catch (err) {
    if (!isApiError(err, CONSUMER_NOT_FOUND)) throw err;
    await jsm.consumers.add(TASK_STREAM, consumer);
  }
  await kvm.create(RATE_BUCKET, { history: 1, ttl: 2 * MINUTE_MS });
  await kvm.create(QUOTA_BUCKET, { history: 1, ttl: 2 * DAY_MS });
  await kvm.create(STATS_BUCKET, { history: 1 });
  await kvm.create(FLIGHT_BUCKET, { history: 1, ttl: 10 * MINUTE_MS });
  await kvm.create(JOBS_BUCKET, { history: 1 });
  // Idempotency keys live as long as their job's files (30 days from generation, freed by the retention sweeper);
  // the bucket's max_age only backs that up. Report files likewise: 31 days from their write.
  await kvm.create(IDEMPOTENCY_BUCKET, { history: 1, ttl: IDEMPOTENCY_MAX_AGE_MS });
  await ensureMaxAge(jsm, `KV_${IDEMPOTENCY_BUCKET}`, IDEMPOTENCY_MAX_AGE_MS);
  await objm.create(REPORTS_OBJECT_BUCKET, { storage: StorageType.File, ttl: nanos(REPORTS_MAX_AGE_MS) });
  await ensureMaxAge(jsm, `OBJ_${REPORTS_OBJECT_BUCKET}`, REPORTS_MAX_AGE_MS);
}

/** Bucket limits changed since a bucket was made are applied in place (a bucket's stream keeps its contents). */
async function ensureMaxAge(jsm: JetStreamManager, stream: string, maxAgeMs: number): Promise<void> {
  const info = await jsm.streams.info(stream);
  if (info.config.max_age !== nanos(maxAgeMs)) await jsm.streams.update(stream, { ...info.config, max_age: nanos(maxAgeMs) });
}
