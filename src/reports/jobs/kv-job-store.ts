/**
 * Report jobs shared by every node (KV bucket `svc_jobs`), implementing the job seams of src/reports/jobs/job-types.ts.
 *
 * Keys: `<job id>` holds the job as JSON; `open.<job id>` marks a job not finished yet (the dispatcher's work list);
 * `finished.<UTC day>.<job id>` marks a finished one by the day it finished (the retention sweeper's list). A job's
 * content lives in the object store `svc_reports` as `<job id>.content.json` (it can exceed a KV value).
 *
 * Every change of a job is a compare-and-set on its revision, retried on conflict, so two nodes can never both move
 * it (exactly one claim, one completion). A runner holds a claimed job under a lease it renews; a job whose lease ran
 * out (its runner died, or lost NATS) may be claimed again and resumes from its stored content. Index keys are written
 * after the job; a crash in between is repaired by the dispatcher (an `open.` key of a finished job).
 */
import type { ObjectStore } from '@nats-io/obj';
import type { KV } from '@nats-io/kv';
import { UpstreamError } from '../../errors.js';
import type {
  AcceptInput, AcceptOutcome, IdempotentRecord, JobAdvance, JobState, JobTransitions, ReportAdmission, ReportJob,
  ReportJobStore, ReportRetention,
} from './job-types.js';
import type { ReportContent } from '../report-types.js';
import { BucketOpener, casPause, isCasConflict, present } from '../../cluster/kv-ops.js';
import { idempotencyKvKey, KvIdempotency, KvQuota } from './kv-quota.js';
import { JOBS_BUCKET, REPORTS_OBJECT_BUCKET } from '../../cluster/names.js';
import type { ClusterLink } from '../../cluster/nats-connection.js';

/** A job as stored: the seam's fields plus its runner's lease and its idempotency key. */
interface StoredJob extends Omit<ReportJob, 'detail' | 'lastError' | 'completedMs' | 'finishedMs' | 'pdfMs' | 'expiredMs'> {
  readonly detail?: string;
  readonly lastError?: string;
  readonly completedMs?: number;
  readonly finishedMs?: number;
  readonly pdfMs?: number;
  readonly expiredMs?: number;
  /** Who runs the job and until when its claim holds unless renewed. */
  readonly lease?: { readonly owner: string; readonly untilMs: number };
  /** The `svc_idem` key that names this job, freed when retention ends. */
  readonly idemKey?: string;
}

const FINISHED: ReadonlySet<JobState> = new Set(['completed', 'failed']);
const RUNNING: ReadonlySet<JobState> = new Set(['running', 'delivering']);
/** A claimed idempotency key whose job has not appeared after this long belongs to a request that died: it is freed. */
const PENDING_CLAIM_MS = 10_000;
const OPEN_PREFIX = 'open.';
const FINISHED_PREFIX = 'finished.';

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function toJob(stored: StoredJob): ReportJob {
  const { lease: _lease, idemKey: _idem, ...job } = stored;
  return Object.freeze({
    ...job,
    detail: job.detail, lastError: job.lastError, completedMs: job.completedMs, finishedMs: job.finishedMs,
    pdfMs: job.pdfMs, expiredMs: job.expiredMs,
  });
}

/** The object name of a job's stored content. */
function contentObjectName(id: string): string {
  return `${id}.content.json`;
}

/** Every job seam over JetStream KV, plus the claim and lease of the task-queue runner. */
export class KvJobStore implements ReportAdmission, ReportJobStore, ReportRetention, JobTransitions {
  readonly #buckets: BucketOpener;
  readonly #quota: KvQuota;
  readonly #idem: KvIdempotency;
  readonly #now: () => number;

  constructor(link: ClusterLink, options: { readonly deadlineMs?: number; readonly now?: () => number } = {}) {
    this.#buckets = new BucketOpener(link, options.deadlineMs);
    this.#quota = new KvQuota(this.#buckets);
    this.#idem = new KvIdempotency(this.#buckets);
    this.#now = options.now ?? Date.now;
  }

  /** Replays, refuses, or charges the quota and creates the job (see kv-quota.ts for the claim and the charge). */
  accept(input: AcceptInput): Promise<AcceptOutcome> {
    return this.#buckets.run('accepting a report', async () => {
      const { idempotency } = input;
      let idemKey: string | undefined;
      if (idempotency !== undefined) {
        idemKey = idempotencyKvKey(input.keyId, idempotency.key);
        for (let attempt = 1; ; attempt++) {
          const earlier = await this.#idem.find(input.keyId, idempotency.key);
          if (earlier === undefined) {
            const claim = { fingerprint: idempotency.fingerprint, jobId: input.id, claimedMs: this.#now() };
            if (await this.#idem.claim(input.keyId, idempotency.key, claim)) break;
            continue;
          }
          if (earlier.fingerprint !== idempotency.fingerprint) return { kind: 'idempotency_conflict' };
          const job = await this.get(earlier.jobId);
          if (job !== undefined) return { kind: 'replayed', job };
          // Claimed by a request still creating its job (wait for it), or by one that died (free its claim).
          if (this.#now() - earlier.claimedMs > PENDING_CLAIM_MS) await this.#idem.release(idemKey, earlier.revision);
          else await new Promise((r) => setTimeout(r, Math.min(200, 10 * attempt)));
        }
      }
      const charge = await this.#quota.charge(input.keyId, input.quota.day, input.quota.limit);
      if (!charge.charged) {
        if (idemKey !== undefined) await this.#idem.release(idemKey);
        return { kind: 'quota_exceeded', used: charge.used };
      }
      const job: StoredJob = {
        id: input.id, keyId: input.keyId, state: 'queued', request: input.request, attempts: 0, notBeforeMs: input.nowMs,
        hasContent: false, createdMs: input.nowMs, updatedMs: input.nowMs, ...(idemKey !== undefined ? { idemKey } : {}),
      };
      try {
        const kv = await this.#kv();
        await kv.create(job.id, JSON.stringify(job));
        await kv.put(`${OPEN_PREFIX}${job.id}`, '');
      } catch (err) {
        // Nothing was made: give the charge and the idempotency key back (best effort; NATS may be what failed).
        await this.#quota.refund(input.keyId, input.quota.day).catch(() => undefined);
        if (idemKey !== undefined) await this.#idem.release(idemKey).catch(() => undefined);
        throw err;
      }
      return { kind: 'created', job: toJob(job) };
    });
  }

  quotaUsed(keyId: number, day: string): Promise<number> {
    return this.#buckets.run('reading a report quota', () => this.#quota.used(keyId, day));
  }

  idempotent(keyId: number, key: string): Promise<IdempotentRecord | undefined> {
    return this.#buckets.run('reading an idempotency key', async () => {
      const claim = await this.#idem.find(keyId, key);
      return claim && { fingerprint: claim.fingerprint, jobId: claim.jobId };
    });
  }

  get(id: string): Promise<ReportJob | undefined> {
    return this.#buckets.run('reading a report job', async () => {
      const found = await this.#read(await this.#kv(), id);
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
    await this.#change('recording a PDF', id, (j) =>
      j.state === 'completed' && j.expiredMs === undefined ? { ...j, pdfMs: nowMs, updatedMs: nowMs } : undefined);
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
    if (changes.content !== undefined) {
      // Only the job's runner stores content (a runner that lost the job must not replace what the new one reads).
      const current = await this.#buckets.run('reading a report job', async () => this.#read(await this.#kv(), id));
      if (current === undefined || current.job.state !== from || (owner !== undefined && current.job.lease?.owner !== owner)) return false;
      const bytes = new TextEncoder().encode(JSON.stringify(changes.content));
      await this.#buckets.run('storing a report content', async () => (await this.#objects()).putBlob({ name: contentObjectName(id) }, bytes));
    }
    const moved = await this.#change('moving a report job', id, (j) => {
      if (j.state !== from || (owner !== undefined && j.lease?.owner !== owner)) return undefined;
      const finished = FINISHED.has(to);
      const { lease, ...rest } = j;
      return {
        ...rest, state: to, updatedMs: nowMs,
        ...(changes.content !== undefined ? { hasContent: true } : {}),
        ...(changes.detail !== undefined ? { detail: changes.detail } : {}),
        ...(to === 'completed' ? { completedMs: nowMs } : {}),
        ...(finished ? { finishedMs: nowMs } : lease !== undefined ? { lease } : {}),
      };
    });
    if (moved !== undefined && FINISHED.has(to)) await this.#indexFinished(moved);
    return moved !== undefined;
  }

  async #requeue(id: string, notBeforeMs: number, nowMs: number, error: string | undefined, owner: string | undefined): Promise<void> {
    await this.#change('requeueing a report job', id, (j) => {
      if (!RUNNING.has(j.state) || (owner !== undefined && j.lease?.owner !== owner)) return undefined;
      const { lease: _lease, ...rest } = j;
      return { ...rest, state: 'queued', notBeforeMs, updatedMs: nowMs, ...(error !== undefined ? { lastError: error } : {}) };
    });
  }

  /**
   * Claims one job for `owner` until `leaseUntilMs`: a due queued job, or a running one whose lease ran out (its
   * runner is gone; it resumes from its stored content). Its attempts go up by one. Undefined when it is not claimable.
   */
  async claim(id: string, nowMs: number, owner: string, leaseUntilMs: number): Promise<ReportJob | undefined> {
    const claimed = await this.#change('claiming a report job', id, (j) => {
      const due = j.state === 'queued' && j.notBeforeMs <= nowMs;
      const orphaned = RUNNING.has(j.state) && (j.lease === undefined || j.lease.untilMs < nowMs);
      if (!due && !orphaned) return undefined;
      return { ...j, state: 'running', attempts: j.attempts + 1, updatedMs: nowMs, lease: { owner, untilMs: leaseUntilMs } };
    });
    return claimed && toJob(claimed);
  }

  /** Extends `owner`'s lease on a job it runs; false when the job is no longer its (finished, or taken over). */
  async renew(id: string, owner: string, leaseUntilMs: number): Promise<boolean> {
    const renewed = await this.#change('renewing a report lease', id, (j) =>
      RUNNING.has(j.state) && j.lease?.owner === owner ? { ...j, lease: { owner, untilMs: leaseUntilMs } } : undefined);
    return renewed !== undefined;
  }

  /** Jobs not finished yet, with the instant their runner's lease ends (repairs the index of finished ones). */
  openJobs(): Promise<Array<ReportJob & { readonly leaseUntilMs: number | undefined }>> {
    return this.#buckets.run('listing open report jobs', async () => {
      const kv = await this.#kv();
      const open: Array<ReportJob & { leaseUntilMs: number | undefined }> = [];
      for (const key of await this.#keys(kv, `${OPEN_PREFIX}>`)) {
        const id = key.slice(OPEN_PREFIX.length);
        const found = await this.#read(kv, id);
        if (found === undefined) await kv.delete(key);
        else if (FINISHED.has(found.job.state)) await this.#indexFinished(found.job);
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
        const found = await this.#read(kv, id);
        if (found === undefined || found.job.expiredMs !== undefined) await kv.delete(key);
        else if (found.job.finishedMs !== undefined && found.job.finishedMs <= beforeMs) ids.push(id);
      }
      return ids;
    });
  }

  async markExpired(id: string, nowMs: number): Promise<void> {
    const expired = await this.#change('expiring a report job', id, (j) =>
      j.expiredMs === undefined ? { ...j, expiredMs: nowMs, updatedMs: nowMs, hasContent: false } : undefined);
    if (expired === undefined) return;
    await this.#buckets.run('deleting a report content', async () => {
      await (await this.#objects()).delete(contentObjectName(id));
      if (expired.idemKey !== undefined) await this.#idem.release(expired.idemKey);
      if (expired.finishedMs !== undefined) await (await this.#kv()).delete(`${FINISHED_PREFIX}${utcDay(expired.finishedMs)}.${id}`);
    });
  }

  /** Nothing to do: the quota bucket's `max_age` (48 h) forgets past days by itself. */
  forgetQuotaBefore(_day: string): void {}

  /** Reads, changes and compare-and-sets a job until it sticks; undefined when `change` declines or there is no job. */
  async #change(what: string, id: string, change: (job: StoredJob) => StoredJob | undefined): Promise<StoredJob | undefined> {
    return this.#buckets.run(what, async () => {
      const kv = await this.#kv();
      for (let attempt = 1; ; attempt++) {
        const found = await this.#read(kv, id);
        const next = found && change(found.job);
        if (found === undefined || next === undefined) return undefined;
        try {
          await kv.update(id, JSON.stringify(next), found.revision);
          return next;
        } catch (err) {
          if (!isCasConflict(err)) throw err;
        }
        await casPause(attempt);
      }
    });
  }

  async #read(kv: KV, id: string): Promise<{ job: StoredJob; revision: number } | undefined> {
    const entry = present(await kv.get(id));
    if (entry === undefined) return undefined;
    try {
      return { job: entry.json<StoredJob>(), revision: entry.revision };
    } catch (err) {
      throw new UpstreamError(`The shared report job '${id}' is not JSON.`, { cause: err });
    }
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
    return this.#buckets.kv(JOBS_BUCKET);
  }

  #objects(): Promise<ObjectStore> {
    return this.#buckets.objects(REPORTS_OBJECT_BUCKET);
  }
}
