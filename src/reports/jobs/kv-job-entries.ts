/**
 * The entries of `svc_jobs` that hold report jobs: their stored form (the seam's job plus its runner's lease and its
 * idempotency key, as JSON), read, and changed by compare-and-set on the entry's revision until a change sticks, so two
 * nodes can never both move a job. kv-job-store.ts says what the changes are.
 */
import type { KV } from '@nats-io/kv';
import { UpstreamError } from '../../errors.js';
import { casPause, isCasConflict, present, type BucketOpener } from '../../cluster/kv-ops.js';
import { JOBS_BUCKET } from '../../cluster/names.js';
import type { JobProgress } from './job-transitions.js';
import type { ReportJob } from './job-types.js';

/** A job as stored: the seam's fields plus its runner's lease and its idempotency key (JSON leaves out what is undefined). */
export type StoredJob = ReportJob & {
  /** Who runs the job and until when its claim holds unless renewed. */
  readonly lease?: Lease;
  /** The `svc_idem` key that names this job, freed when retention ends. */
  readonly idemKey?: string;
};

/** A runner's hold on a job it runs. */
export interface Lease {
  readonly owner: string;
  readonly untilMs: number;
}

/** The stored job after a move of the state machine (undefined: the move did not apply), holding `lease` after it. */
export function withProgress(job: StoredJob, next: JobProgress | undefined, lease: Lease | undefined): StoredJob | undefined {
  if (next === undefined) return undefined;
  const { lease: _held, ...rest } = { ...job, ...next };
  return lease === undefined ? rest : { ...rest, lease };
}

/** The seam's job: without lease and idempotency key, and with the fields JSON left out present as undefined. */
export function toJob(stored: StoredJob): ReportJob {
  const { lease: _lease, idemKey: _idem, ...job } = stored;
  return Object.freeze({
    ...job,
    detail: job.detail, lastError: job.lastError, completedMs: job.completedMs, finishedMs: job.finishedMs,
    pdfMs: job.pdfMs, expiredMs: job.expiredMs,
  });
}

/** Reads and compare-and-sets job entries, each operation within the caller's deadline. */
export class KvJobEntries {
  readonly #buckets: BucketOpener;

  constructor(buckets: BucketOpener) {
    this.#buckets = buckets;
  }

  /** The jobs bucket on the live connection. */
  kv(): Promise<KV> {
    return this.#buckets.kv(JOBS_BUCKET);
  }

  /** Reads, changes and compare-and-sets a job until it sticks; undefined when `change` declines or there is no job. */
  async change(what: string, id: string, change: (job: StoredJob) => StoredJob | undefined): Promise<StoredJob | undefined> {
    return this.#buckets.run(what, async () => {
      const kv = await this.kv();
      for (let attempt = 1; ; attempt++) {
        const found = await this.read(kv, id);
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

  /** The job and its entry's revision; undefined when there is none. `UpstreamError` when the entry is not JSON. */
  async read(kv: KV, id: string): Promise<{ job: StoredJob; revision: number } | undefined> {
    const entry = present(await kv.get(id));
    if (entry === undefined) return undefined;
    try {
      return { job: entry.json<StoredJob>(), revision: entry.revision };
    } catch (err) {
      throw new UpstreamError(`The shared report job '${id}' is not JSON.`, { cause: err });
    }
  }
}
