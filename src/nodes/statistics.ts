/**
 * The formulas every node shares for historical statistics, written once: the compute version that is part of every
 * cache key (so an API node and a worker reuse each other's results), how long a cluster-wide flight claim holds,
 * and the historical service over a node's back ends.
 */
import { KERNEL_VERSION } from '../compute/kernels/stats-kernel.js';
import type { Config } from '../config.js';
import { cacheBudgets } from '../config/memory-budget.js';
import type { Geocoder } from '../geocode/geocoder.js';
import { HistoricalService } from '../services/historical-service.js';
import { MemoryStatsCache } from '../services/memory-stats-cache.js';
import { StatsResponseCache } from '../services/stats-responses.js';
import type { DamageRegistry } from '../store/damage-registry.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import type { NodeBackends } from './backends.js';

/** The version of the kernels and statistics definitions, part of every statistics cache key. */
export function computeVersion(config: Pick<Config, 'version'>): string {
  return `${config.version}+${KERNEL_VERSION}`;
}

/**
 * How long a cluster-wide statistics flight claim holds unless renewed, ms. Its claimant renews it every third of this
 * while it computes, so this bounds only how long others wait on the claim of a node that died.
 */
export const FLIGHT_CLAIM_MS = 10_000;

/** What the historical service needs besides the back ends. */
export interface HistoricalParts {
  readonly geocoder: Geocoder;
  readonly clock: Clock;
  readonly logger: Pick<Logger, 'error'>;
  readonly damage?: DamageRegistry;
}

/**
 * Historical statistics over a node's back ends: hot results from memory, every result also kept in the back ends'
 * cache (SQLite, or KV shared by the nodes), one computation per key (per process, or across the cluster), and
 * complete answers kept for replay (the store the stats fast path shares; none when `SVC_STATS_RESPONSE_CACHE_MB` is 0).
 */
export function historicalService(config: Config, backends: Pick<NodeBackends, 'compute' | 'statsCache' | 'flights'>, parts: HistoricalParts): HistoricalService {
  return new HistoricalService({
    backend: backends.compute,
    geocoder: parts.geocoder,
    cache: new MemoryStatsCache(backends.statsCache, cacheBudgets(config).statistics),
    flights: backends.flights,
    clock: parts.clock,
    timeoutMs: config.upstreamTimeoutMs,
    computeVersion: computeVersion(config),
    logger: parts.logger,
    damage: parts.damage,
    answers: config.statsResponseCacheMb !== 0 ? new StatsResponseCache(cacheBudgets(config).statsResponses) : undefined,
  });
}
