/**
 * Report jobs shared by every node (KV bucket `svc_jobs`), implementing the job seams of src/reports/jobs/job-types.ts.
 *
 * Keys: `<job id>` holds the job as JSON; `open.<job id>` marks a job not finished yet (the dispatcher's work list);
 * `finished.<UTC day>.<job id>` marks a finished one by the day it finished (the retention sweeper's list). A job's
 * content lives in the object store `svc_reports` as `<job id>.content.json` (it can exceed a KV value).
 *
 * Every change of a job is a compare-and-set on its revision, retried on conflict (kv-job-entries.ts), so two nodes
 * can never both move it (exactly one claim, one completion). A runner holds a claimed job under a lease it renews; a job whose lease ran
 * out (its runner died, or lost NATS) may be claimed again and resumes from its stored content. Index keys are written
 * after the job; a crash in between is repaired by the dispatcher (an `open.` key of a finished job).
 *
 * What a move writes is the state machine's (job-transitions.ts, shared with the SQLite store), applied inside each
 * compare-and-set; this file adds the lease, the content object and the indexes. Admission (quota and idempotency)
 * is kv-admission.ts's.
 */
import type { ObjectStore } from '@nats-io/obj';
import type { KV } from '@nats-io/kv';
import {
  acceptedProgress, advanced, assertCanAdvance, claimed as claimedProgress, expired, FINISHED_STATES, IN_HAND_STATES, pdfRecorded, requeued,
} from './job-transitions.js';
import { jobKind } from './job-types.js';
import type {
  AcceptInput, AcceptOutcome, IdempotentRecord, JobAdvance, JobState, JobTransitions, ReportAdmission, ReportJob,
  ReportJobStore, ReportRetention,
} from './job-types.js';
import type { ReportContent } from '../report-types.js';
import { BucketOpener } from '../../cluster/kv-ops.js';
import { KvAdmission } from './kv-admission.js';
import { KvJobEntries, toJob, withProgress, type StoredJob } from './kv-job-entries.js';
import { REPORTS_OBJECT_BUCKET } from '../../cluster/names.js';
import type { ClusterLink } from '../../cluster/nats-connection.js';

const OPEN_PREFIX = 'open.';
const FINISHED_PREFIX = 'finished.';

/** Whether the job may be moved by `owner` (undefined: by anyone, as the API's side does). */
function mayMove(job: StoredJob, owner: string | undefined): boolean {
  return owner === undefined || job.lease?.owner === owner;
}

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The object name of a job's stored content. */
function contentObjectName(id: string): string {
  return `${id}.content.json`;
}

/** Every job seam over JetStream KV, plus the claim and lease of the task-queue runner. */
export class KvJobStore implements ReportAdmission, ReportJobStore, ReportRetention, JobTransitions {
  readonly #buckets: BucketOpener;
  readonly #admission: KvAdmission;
  readonly #entries: KvJobEntries;

  constructor(link: ClusterLink, options: { readonly deadlineMs?: number; readonly now?: () => number } = {}) {
    this.#buckets = new BucketOpener(link, options.deadlineMs);
    this.#entries = new KvJobEntries(this.#buckets);
    const create = (input: AcceptInput, idemKey: string | undefined) => this.#create(input, idemKey);
    const openOf = async (keyId: number, kinds: readonly string[]) =>
      (await this.openJobs()).filter((j) => j.keyId === keyId && kinds.includes(jobKind(j.request))).length;
    this.#admission = new KvAdmission(this.#buckets, { get: (id) => this.get(id), create, openOf }, options.now ?? Date.now);
  }

  accept(input: AcceptInput): Promise<AcceptOutcome> {
    return this.#admission.accept(input);
  }

  quotaUsed(keyId: number, day: string): Promise<number> {
    return this.#admission.quotaUsed(keyId, day);
  }

  idempotent(keyId: number, key: string): Promise<IdempotentRecord | undefined> {
    return this.#admission.idempotent(keyId, key);
  }

  get(id: string): Promise<ReportJob | undefined> {
    return this.#buckets.run('reading a report job', async () => {
      const found = await this.#entries.read(await this.#kv(), id);
      return found && toJob(found.job);
    });
  }

  content(id: string): Promise<ReportContent | undefined> {
    return this.#buckets.run('reading a report content', async () => {
      const bytes = await (await this.#objects()).getBlob(contentObjectName(id));
      if (bytes === null) return undefined;
      return JSON.parse(new TextDecoder().decode(bytes)) as ReportContent;
    });
  }

  async markPdfReady(id: string, nowMs: number): Promise<void> {
    await this.#entries.change('recording a PDF', id, (j) => withProgress(j, pdfRecorded(j, nowMs), j.lease));
  }

  advance(id: string, from: JobState, to: JobState, nowMs: number, changes: JobAdvance = {}): Promise<boolean> {
    return this.#advance(id, from, to, nowMs, changes, undefined);
  }

  requeue(id: string, notBeforeMs: number, nowMs: number, error?: string): Promise<void> {
    return this.#requeue(id, notBeforeMs, nowMs, error, undefined);
  }

  /**
   * The transitions of one runner: they apply only while `owner` holds the job's lease, so a runner that lost its job
   * to another (its lease ran out while it was cut off) can neither complete, fail nor requeue it.
   */
  ownedBy(owner: string): JobTransitions {
    return {
      advance: (id, from, to, nowMs, changes = {}) => this.#advance(id, from, to, nowMs, changes, owner),
      requeue: (id, notBeforeMs, nowMs, error) => this.#requeue(id, notBeforeMs, nowMs, error, owner),
    };
  }

  async #advance(id: string, from: JobState, to: JobState, nowMs: number, changes: JobAdvance, owner: string | undefined): Promise<boolean> {
    assertCanAdvance(from, to);
    if (changes.content !== undefined) {
      // Only the job's runner stores content (a runner that lost the job must not replace what the new one reads).
      const current = await this.#buckets.run('reading a report job', async () => this.#entries.read(await this.#kv(), id));
      if (current === undefined || current.job.state !== from || !mayMove(current.job, owner)) return false;
      const bytes = new TextEncoder().encode(JSON.stringify(changes.content));
      await this.#buckets.run('storing a report content', async () => (await this.#objects()).putBlob({ name: contentObjectName(id) }, bytes));
    }
    const finishing = FINISHED_STATES.has(to);
    const moved = await this.#entries.change('moving a report job', id, (j) =>
      mayMove(j, owner) ? withProgress(j, advanced(j, from, to, nowMs, changes), finishing ? undefined : j.lease) : undefined);
    if (moved !== undefined && finishing) await this.#indexFinished(moved);
    return moved !== undefined;
  }

  async #requeue(id: string, notBeforeMs: number, nowMs: number, error: string | undefined, owner: string | undefined): Promise<void> {
    await this.#entries.change('requeueing a report job', id, (j) =>
      mayMove(j, owner) ? withProgress(j, requeued(j, notBeforeMs, nowMs, error), undefined) : undefined);
  }

  /**
   * Claims one job for `owner` until `leaseUntilMs`: a due queued job, or a running one whose lease ran out (its
   * runner is gone; it resumes from its stored content). Its attempts go up by one. Undefined when it is not claimable.
   */
  async claim(id: string, nowMs: number, owner: string, leaseUntilMs: number): Promise<ReportJob | undefined> {
    const claimed = await this.#entries.change('claiming a report job', id, (j) => {
      const leaseLapsed = j.lease === undefined || j.lease.untilMs < nowMs;
      return withProgress(j, claimedProgress(j, nowMs, leaseLapsed), { owner, untilMs: leaseUntilMs });
    });
    return claimed && toJob(claimed);
  }

  /** Extends `owner`'s lease on a job it runs; false when the job is no longer its (finished, or taken over). */
  async renew(id: string, owner: string, leaseUntilMs: number): Promise<boolean> {
    const renewed = await this.#entries.change('renewing a report lease', id, (j) =>
      IN_HAND_STATES.has(j.state) && j.lease?.owner === owner ? { ...j, lease: { owner, untilMs: leaseUntilMs } } : undefined);
    return renewed !== undefined;
  }

  /** Jobs not finished yet, with the instant their runner's lease ends (repairs the index of finished ones). */
  openJobs(): Promise<Array<ReportJob & { readonly leaseUntilMs: number | undefined }>> {
    return this.#buckets.run('listing open report jobs', async () => {
      const kv = await this.#kv();
      const open: Array<ReportJob & { leaseUntilMs: number | undefined }> = [];
      for (const key of await this.#keys(kv, `${OPEN_PREFIX}>`)) {
        const id = key.slice(OPEN_PREFIX.length);
        const found = await this.#entries.read(kv, id);
        if (found === undefined) await kv.delete(key);
        else if (FINISHED_STATES.has(found.job.state)) await this.#indexFinished(found.job);
        else open.push({ ...toJob(found.job), leaseUntilMs: found.job.lease?.untilMs });
      }
      return open;
    });
  }

  due(beforeMs: number, limit: number): Promise<string[]> {
    return this.#buckets.run('listing expired report jobs', async () => {
      const kv = await this.#kv();
      const lastDay = utcDay(beforeMs);
      const keys = (await this.#keys(kv, `${FINISHED_PREFIX}>`))
        .map((key) => ({ key, day: key.slice(FINISHED_PREFIX.length, FINISHED_PREFIX.length + 10), id: key.slice(FINISHED_PREFIX.length + 11) }))
        .filter((k) => k.day <= lastDay)
        .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
      const ids: string[] = [];
      for (const { key, id } of keys) {
        if (ids.length >= limit) break;
        const found = await this.#entries.read(kv, id);
        if (found === undefined || found.job.expiredMs !== undefined) await kv.delete(key);
        else if (found.job.finishedMs !== undefined && found.job.finishedMs <= beforeMs) ids.push(id);
      }
      return ids;
    });
  }

  async markExpired(id: string, nowMs: number): Promise<void> {
    const gone = await this.#entries.change('expiring a report job', id, (j) => withProgress(j, expired(j, nowMs), j.lease));
    if (gone === undefined) return;
    await this.#buckets.run('deleting a report content', async () => {
      await (await this.#objects()).delete(contentObjectName(id));
      if (gone.idemKey !== undefined) await this.#admission.release(gone.idemKey);
      if (gone.finishedMs !== undefined) await (await this.#kv()).delete(`${FINISHED_PREFIX}${utcDay(gone.finishedMs)}.${id}`);
    });
  }

  /** Nothing to do: the quota bucket's `max_age` (48 h) forgets past days by itself. */
  forgetQuotaBefore(_day: string): void {}

  /** Creates an accepted job, queued, and lists it open (admission's last step, inside its deadline). */
  async #create(input: AcceptInput, idemKey: string | undefined): Promise<ReportJob> {
    const job: StoredJob = {
      id: input.id, keyId: input.keyId, request: input.request, createdMs: input.nowMs, ...acceptedProgress(input.nowMs),
      ...(idemKey !== undefined ? { idemKey } : {}),
    };
    const kv = await this.#kv();
    await kv.create(job.id, JSON.stringify(job));
    await kv.put(`${OPEN_PREFIX}${job.id}`, '');
    return toJob(job);
  }

  async #indexFinished(job: StoredJob): Promise<void> {
    await this.#buckets.run('indexing a finished report job', async () => {
      const kv = await this.#kv();
      await kv.put(`${FINISHED_PREFIX}${utcDay(job.finishedMs ?? job.updatedMs)}.${job.id}`, '');
      await kv.delete(`${OPEN_PREFIX}${job.id}`);
    });
  }

  async #keys(kv: KV, filter: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const key of await kv.keys(filter)) keys.push(key);
    return keys;
  }

  #kv(): Promise<KV> {
    return this.#entries.kv();
  }

  #objects(): Promise<ObjectStore> {
    return this.#buckets.objects(REPORTS_OBJECT_BUCKET);
  }
}
