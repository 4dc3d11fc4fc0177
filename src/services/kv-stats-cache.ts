/**
 * The historical statistics cache shared by every API node (KV bucket `svc_stats`, values the `CachedStats` JSON,
 * keys the SHA-256 of the cache key's canonical id, which names the dataset content version and the compute version,
 * so an entry never goes stale), and single flight across nodes (KV bucket `svc_flight`): one computation per cache
 * key in the whole cluster.
 *
 * Flight: a node first joins a computation already running in its own process; otherwise it looks in the cache, then
 * claims the key with a KV `create` on `svc_flight` (the claim names its owner and the instant it expires). The node
 * that wins computes, stores the result in the cache and deletes its claim. The others poll the cache (20 ms growing
 * to 250 ms) until the value arrives; when the claim is gone without a value (the claimant failed) or has expired (the
 * claimant died), they claim the key themselves. The claimant renews its claim every third of its duration while it
 * computes, so a claim lapses soon after its claimant died (a killed worker's claims hold up no one for long), however
 * long a computation takes; a renewal that fails (NATS away) at worst lets a second node compute the same value again;
 * answers never differ.
 */
import type { KV } from '@nats-io/kv';
import { UpstreamError } from '../errors.js';
import type { StatsCacheKey } from './cache-keys.js';
import { SingleFlight, type FlightGroup } from '../util/single-flight.js';
import type { CachedStats, StatsCache } from './stats-cache.js';
import { BucketOpener, hashedKey, isCasConflict, present } from '../cluster/kv-ops.js';
import { FLIGHT_BUCKET, STATS_BUCKET } from '../cluster/names.js';
import type { ClusterLink } from '../cluster/nats-connection.js';

/** A `StatsCache` over JetStream KV. */
export class KvStatsCache implements StatsCache {
  readonly #buckets: BucketOpener;

  constructor(link: ClusterLink, deadlineMs?: number) {
    this.#buckets = new BucketOpener(link, deadlineMs);
  }

  get(key: StatsCacheKey): Promise<CachedStats | undefined> {
    return this.getById(key.id);
  }

  /** The entry under a cache key's canonical id. */
  getById(id: string): Promise<CachedStats | undefined> {
    return this.#buckets.run('reading cached statistics', async () => {
      const entry = present(await (await this.#kv()).get(hashedKey(id)));
      if (entry === undefined) return undefined;
      try {
        return entry.json<CachedStats>();
      } catch (err) {
        throw new UpstreamError(`The shared statistics cache entry for ${JSON.stringify(id)} is not JSON.`, { cause: err });
      }
    });
  }

  async put(key: StatsCacheKey, value: CachedStats): Promise<void> {
    await this.#buckets.run('storing statistics', async () => (await this.#kv()).put(hashedKey(key.id), JSON.stringify(value)));
  }

  #kv(): Promise<KV> {
    return this.#buckets.kv(STATS_BUCKET);
  }
}

/** Options of the cross-node flight. */
export interface ClusterFlightOptions {
  readonly link: ClusterLink;
  /** The shared cache the claimant's work stores its result in. */
  readonly cache: KvStatsCache;
  /** Who claims (the API node's id), for operators reading `svc_flight`. */
  readonly owner: string;
  /** How long a claim holds without renewal, ms (renewed every third of it while the computation runs). */
  readonly claimMs: number;
  readonly now?: () => number;
}

interface FlightClaim {
  readonly owner: string;
  readonly untilMs: number;
}

/** Single flight of statistics computations across every API node. */
export class ClusterFlight implements FlightGroup<CachedStats> {
  readonly #o: ClusterFlightOptions;
  readonly #local = new SingleFlight<CachedStats>();
  readonly #buckets: BucketOpener;
  readonly #now: () => number;

  constructor(options: ClusterFlightOptions) {
    this.#o = options;
    this.#buckets = new BucketOpener(options.link);
    this.#now = options.now ?? Date.now;
  }

  /** Joins the computation of this process, or of another node, or runs `work` as the one claimant. */
  run(key: string, work: () => Promise<CachedStats>): Promise<CachedStats> {
    return this.#local.run(key, () => this.#across(key, work));
  }

  settled(): Promise<void> {
    return this.#local.settled();
  }

  async #across(id: string, work: () => Promise<CachedStats>): Promise<CachedStats> {
    const flightKey = hashedKey(id);
    for (let pollMs = 20; ; pollMs = Math.min(250, Math.ceil(pollMs * 1.5))) {
      const cached = await this.#o.cache.getById(id);
      if (cached !== undefined) return cached;
      const claim: FlightClaim = { owner: this.#o.owner, untilMs: this.#now() + this.#o.claimMs };
      const revision = await this.#tryClaim(flightKey, claim);
      if (revision !== undefined) {
        // The claim is renewed while the work runs, so it lapses soon after its owner died, however long the work.
        let held: number | undefined = revision;
        let renewal: Promise<void> = Promise.resolve();
        const timer = setInterval(() => {
          renewal = renewal.then(async () => {
            if (held !== undefined) held = await this.#renew(flightKey, held).catch(() => held);
          });
        }, Math.max(1, Math.floor(this.#o.claimMs / 3)));
        try {
          // Looked at again under the claim: a claimant that finished between our look and our claim has stored its
          // answer and deleted its claim, which let ours be created.
          return (await this.#o.cache.getById(id)) ?? await work();
        } finally {
          clearInterval(timer);
          await renewal;
          // Only our own claim: one that expired and was taken over belongs to its new owner.
          const own = held;
          if (own !== undefined) {
            await this.#buckets.run('releasing a flight claim', async () => (await this.#kv()).delete(flightKey, { previousSeq: own })).catch(() => undefined);
          }
        }
      }
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }

  /** Extends our claim at `revision`; its new revision, or undefined when it was taken over (no longer ours). */
  async #renew(flightKey: string, revision: number): Promise<number | undefined> {
    return this.#buckets.run('renewing a flight claim', async () => {
      const claim: FlightClaim = { owner: this.#o.owner, untilMs: this.#now() + this.#o.claimMs };
      try {
        return await (await this.#kv()).update(flightKey, JSON.stringify(claim), revision);
      } catch (err) {
        if (isCasConflict(err)) return undefined;
        throw err;
      }
    });
  }

  /** The claim's revision when we hold it now; undefined when a live claim of another is in the way. */
  async #tryClaim(flightKey: string, claim: FlightClaim): Promise<number | undefined> {
    return this.#buckets.run('claiming a computation', async () => {
      const kv = await this.#kv();
      try {
        return await kv.create(flightKey, JSON.stringify(claim));
      } catch (err) {
        if (!isCasConflict(err)) throw err;
      }
      const entry = present(await kv.get(flightKey));
      if (entry === undefined) return undefined; // released meanwhile: the next round looks in the cache first
      const held = entry.json<FlightClaim>();
      if (held.untilMs >= this.#now()) return undefined;
      try {
        return await kv.update(flightKey, JSON.stringify(claim), entry.revision); // the claimant died: take over
      } catch (err) {
        if (isCasConflict(err)) return undefined;
        throw err;
      }
    });
  }

  #kv(): Promise<KV> {
    return this.#buckets.kv(FLIGHT_BUCKET);
  }
}
