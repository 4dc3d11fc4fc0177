/**
 * Daily report quotas and idempotency keys shared by every API node.
 *
 * - Quotas (KV bucket `svc_quota`): one key per API key and UTC day, `<keyId>.<YYYY-MM-DD>`, holding the reports
 *   charged as a decimal number. A charge is a compare-and-set on the key's revision (retried when another node
 *   charged in between), refused when the day is full, so N nodes never accept more than the limit together. The
 *   bucket's `max_age` (48 h) forgets past days.
 * - Idempotency keys (KV bucket `svc_idem`): one key per API key and client key, `<keyId>.<sha256 of the client key>`,
 *   holding the request's fingerprint and the job it made. It is claimed with `create` before anything is charged, so
 *   of concurrent requests under one client key exactly one makes a job; the others replay it.
 */
import type { KV } from '@nats-io/kv';
import { UpstreamError } from '../../errors.js';
import { casPause, hashedKey, isCasConflict, present, type BucketOpener } from '../../cluster/kv-ops.js';
import { IDEMPOTENCY_BUCKET, QUOTA_BUCKET } from '../../cluster/names.js';

/** The KV key of a key's quota on a UTC day. */
function quotaKey(keyId: number, day: string): string {
  return `${keyId}.${day}`;
}

/** The KV key of an idempotency key of an API key (client keys are any visible ASCII, so they are hashed). */
export function idempotencyKvKey(keyId: number, clientKey: string): string {
  return `${keyId}.${hashedKey(clientKey)}`;
}

function countOf(text: string, key: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) throw new UpstreamError(`The shared report quota '${key}' holds no count.`);
  return n;
}

/** Per-key daily report counts over `svc_quota`. Every method runs inside the caller's deadline. */
export class KvQuota {
  constructor(private readonly buckets: BucketOpener) {}

  /** Reports charged to the key on the day. */
  async used(keyId: number, day: string): Promise<number> {
    const key = quotaKey(keyId, day);
    const entry = present(await (await this.#kv()).get(key));
    return entry === undefined ? 0 : countOf(entry.string(), key);
  }

  /** Charges one report when the day has room; otherwise charges nothing and says how many were used. */
  async charge(keyId: number, day: string, limit: number): Promise<{ readonly charged: boolean; readonly used: number }> {
    return this.#add(keyId, day, +1, (used) => used < limit);
  }

  /** Gives one charged report back (the job it paid for could not be created). */
  async refund(keyId: number, day: string): Promise<void> {
    await this.#add(keyId, day, -1, (used) => used > 0);
  }

  async #add(keyId: number, day: string, delta: number, allowed: (used: number) => boolean): Promise<{ charged: boolean; used: number }> {
    const kv = await this.#kv();
    const key = quotaKey(keyId, day);
    for (let attempt = 1; ; attempt++) {
      const entry = present(await kv.get(key));
      const used = entry === undefined ? 0 : countOf(entry.string(), key);
      if (!allowed(used)) return { charged: false, used };
      try {
        if (entry === undefined) await kv.create(key, String(used + delta));
        else await kv.update(key, String(used + delta), entry.revision);
        return { charged: true, used: used + delta };
      } catch (err) {
        if (!isCasConflict(err)) throw err;
      }
      await casPause(attempt);
    }
  }

  #kv(): Promise<KV> {
    return this.buckets.kv(QUOTA_BUCKET);
  }
}

/** What an idempotency key records: the request's fingerprint, its job, and when it was claimed. */
export interface IdempotencyClaim {
  readonly fingerprint: string;
  readonly jobId: string;
  readonly claimedMs: number;
}

/** A claim as stored, with the revision a release needs. */
export interface StoredClaim extends IdempotencyClaim {
  readonly revision: number;
}

/** Idempotency keys over `svc_idem`. Every method runs inside the caller's deadline. */
export class KvIdempotency {
  constructor(private readonly buckets: BucketOpener) {}

  /** The claim under the client key, if any. */
  async find(keyId: number, clientKey: string): Promise<StoredClaim | undefined> {
    const key = idempotencyKvKey(keyId, clientKey);
    const entry = present(await (await this.#kv()).get(key));
    if (entry === undefined) return undefined;
    let claim: IdempotencyClaim;
    try {
      claim = entry.json<IdempotencyClaim>();
    } catch (err) {
      throw new UpstreamError(`The shared idempotency record '${key}' is not JSON.`, { cause: err });
    }
    return { ...claim, revision: entry.revision };
  }

  /** Claims the client key for a job; false when another request claimed it first. */
  async claim(keyId: number, clientKey: string, claim: IdempotencyClaim): Promise<boolean> {
    try {
      await (await this.#kv()).create(idempotencyKvKey(keyId, clientKey), JSON.stringify(claim));
      return true;
    } catch (err) {
      if (isCasConflict(err)) return false;
      throw err;
    }
  }

  /** Releases a claim (only the revision read, so a newer claim is never released); false when it changed. */
  async release(kvKey: string, revision?: number): Promise<boolean> {
    try {
      await (await this.#kv()).delete(kvKey, revision === undefined ? {} : { previousSeq: revision });
      return true;
    } catch (err) {
      if (isCasConflict(err)) return false;
      throw err;
    }
  }

  #kv(): Promise<KV> {
    return this.buckets.kv(IDEMPOTENCY_BUCKET);
  }
}
