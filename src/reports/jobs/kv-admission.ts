/**
 * Admission over JetStream KV (the `ReportAdmission` seam of the KV job store): the key's open jobs are bounded
 * (when asked), the idempotency key is claimed with
 * `create` before anything is charged, so of concurrent requests under one client key exactly one makes a job and the
 * others replay it; the day's quota is then charged by compare-and-set, and the job created. Nothing is left half
 * done: a refused charge or a failed creation gives the idempotency key (and the charge) back. kv-quota.ts holds the
 * two buckets' operations.
 */
import type { AcceptInput, AcceptOutcome, IdempotentRecord, ReportAdmission, ReportJob } from './job-types.js';
import { idempotencyKvKey, KvIdempotency, KvQuota } from './kv-quota.js';
import type { BucketOpener } from '../../cluster/kv-ops.js';

/** A claimed idempotency key whose job has not appeared after this long belongs to a request that died: it is freed. */
const PENDING_CLAIM_MS = 10_000;

/** What admission needs of the job store: a job by id (for a replay), and the creation of a job. */
export interface AdmittedJobs {
  get(id: string): Promise<ReportJob | undefined>;
  /** How many jobs of `keyId` whose request is of one of `kinds` are open (queued, running or delivering). */
  openOf(keyId: number, kinds: readonly string[]): Promise<number>;
  /** Creates the job queued, naming the idempotency key it holds (freed when retention ends). */
  create(input: AcceptInput, idemKey: string | undefined): Promise<ReportJob>;
}

/** Quota, idempotency and the creation of a job, exact across nodes. */
export class KvAdmission implements ReportAdmission {
  readonly #buckets: BucketOpener;
  readonly #jobs: AdmittedJobs;
  readonly #quota: KvQuota;
  readonly #idem: KvIdempotency;
  readonly #now: () => number;

  constructor(buckets: BucketOpener, jobs: AdmittedJobs, now: () => number) {
    this.#buckets = buckets;
    this.#jobs = jobs;
    this.#quota = new KvQuota(buckets);
    this.#idem = new KvIdempotency(buckets);
    this.#now = now;
  }

  /** Replays, refuses, or charges the quota and creates the job. */
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
          const job = await this.#jobs.get(earlier.jobId);
          if (job !== undefined) return { kind: 'replayed', job };
          // Claimed by a request still creating its job (wait for it), or by one that died (free its claim).
          if (this.#now() - earlier.claimedMs > PENDING_CLAIM_MS) await this.#idem.release(idemKey, earlier.revision);
          else await new Promise((r) => setTimeout(r, Math.min(200, 10 * attempt)));
        }
      }
      if (input.openLimit !== undefined) {
        // Counted from the open index before creating: two requests of one key at the same instant on two nodes may
        // both pass (the bound is then exceeded by at most the requests racing), which the quota's compare-and-set
        // would prevent but an open count cannot without a counter every finishing move must keep right.
        const open = await this.#jobs.openOf(input.keyId, input.openLimit.kinds);
        if (open >= input.openLimit.limit) {
          if (idemKey !== undefined) await this.#idem.release(idemKey);
          return { kind: 'open_limit', open };
        }
      }
      const { quota } = input;
      const charge = quota === undefined ? { charged: true, used: 0 } : await this.#quota.charge(input.keyId, quota.day, quota.limit);
      if (!charge.charged) {
        if (idemKey !== undefined) await this.#idem.release(idemKey);
        return { kind: 'quota_exceeded', used: charge.used };
      }
      try {
        return { kind: 'created', job: await this.#jobs.create(input, idemKey) };
      } catch (err) {
        // Nothing was made: give the charge and the idempotency key back (best effort; NATS may be what failed).
        if (quota !== undefined) await this.#quota.refund(input.keyId, quota.day).catch(() => undefined);
        if (idemKey !== undefined) await this.#idem.release(idemKey).catch(() => undefined);
        throw err;
      }
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

  /** Frees the idempotency key of a job whose retention ended (inside the caller's deadline). */
  async release(idemKey: string): Promise<void> {
    await this.#idem.release(idemKey);
  }
}
