/**
 * What every shared-state module does with JetStream KV: open a bucket once per connection, bound every request by a
 * deadline, tell a lost compare-and-set from a real failure, and map failures to the errors clients may see — NATS
 * down or failing is `UpstreamError` (502), no answer in time is `UpstreamTimeoutError` (504). Nothing waits forever.
 */
import { createHash } from 'node:crypto';
import { JetStreamApiError } from '@nats-io/jetstream';
import type { KV, KvEntry } from '@nats-io/kv';
import type { ObjectStore } from '@nats-io/obj';
import { ServiceError, UpstreamError, UpstreamTimeoutError } from '../errors.js';
import type { ClusterConnection, ClusterLink } from './nats-connection.js';

/** Default deadline of one shared-state operation (a few KV round trips), ms. */
export const STATE_DEADLINE_MS = 5_000;

/** JetStream's "wrong last sequence" code: a `create` on an existing key, or an `update` on a changed revision. */
const WRONG_LAST_SEQUENCE = 10071;

/** Whether `err` is a lost compare-and-set (someone else wrote the key first). */
export function isCasConflict(err: unknown): boolean {
  if (err instanceof JetStreamApiError) return err.code === WRONG_LAST_SEQUENCE;
  return err instanceof Error && /wrong last sequence/i.test(err.message);
}

/** An entry that holds a value (not a delete or purge marker), or undefined. */
export function present(entry: KvEntry | null): KvEntry | undefined {
  return entry !== null && entry.operation === 'PUT' ? entry : undefined;
}

/** A KV key for arbitrary text: KV keys admit only `[-/_=.a-zA-Z0-9]`, so other text is hashed. */
export function hashedKey(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Opens buckets of the link's current connection, each once per connection. */
export class BucketOpener {
  readonly #opened = new WeakMap<ClusterConnection, Map<string, Promise<KV | ObjectStore>>>();

  constructor(
    readonly link: ClusterLink,
    readonly deadlineMs: number = STATE_DEADLINE_MS,
  ) {}

  /** The KV bucket on the live connection; `UpstreamError` while NATS is down. */
  kv(name: string): Promise<KV> {
    return this.#open(`kv:${name}`, (conn) => conn.kvm.open(name, { timeout: this.deadlineMs })) as Promise<KV>;
  }

  /** The object-store bucket on the live connection; `UpstreamError` while NATS is down. */
  objects(name: string): Promise<ObjectStore> {
    return this.#open(`obj:${name}`, (conn) => conn.objm.open(name)) as Promise<ObjectStore>;
  }

  #open(name: string, open: (conn: ClusterConnection) => Promise<KV | ObjectStore>): Promise<KV | ObjectStore> {
    const conn = this.link.require();
    let buckets = this.#opened.get(conn);
    if (buckets === undefined) {
      buckets = new Map();
      this.#opened.set(conn, buckets);
    }
    let bucket = buckets.get(name);
    if (bucket === undefined) {
      bucket = open(conn);
      bucket.catch(() => buckets.delete(name));
      buckets.set(name, bucket);
    }
    return bucket;
  }

  /** Runs one shared-state operation under the deadline, with its failures mapped (see the module comment). */
  run<T>(what: string, op: () => Promise<T>): Promise<T> {
    return withDeadline(what, this.deadlineMs, op);
  }
}

/** Runs `op`, rejecting with `UpstreamTimeoutError` after `ms`; other failures become `UpstreamError`. */
async function withDeadline<T>(what: string, ms: number, op: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new UpstreamTimeoutError(`The shared state (NATS) did not answer ${what} within ${ms} ms; retrying is reasonable.`)), ms);
  });
  try {
    return await Promise.race([op(), deadline]);
  } catch (err) {
    throw asUpstream(err, what);
  } finally {
    clearTimeout(timer);
  }
}

/** Service errors pass unchanged; anything else NATS threw becomes `UpstreamError` naming the operation. */
function asUpstream(err: unknown, what: string): ServiceError {
  if (err instanceof ServiceError) return err;
  const reason = err instanceof Error ? err.message : String(err);
  return new UpstreamError(`The shared state (NATS) failed ${what} (${reason}); retrying is reasonable.`, { cause: err });
}

/** A short random pause before retrying a lost compare-and-set, so contenders spread out. */
export function casPause(attempt: number): Promise<void> {
  const ms = Math.min(50, attempt) * Math.random();
  return ms < 1 ? Promise.resolve() : new Promise((r) => setTimeout(r, ms));
}
