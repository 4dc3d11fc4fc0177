/**
 * The contract of a statistics cache (`StatsCache`), run against each implementation: SQLite
 * (test/services/cache-and-flight.test.ts), the memory LRU in front of it (test/services/memory-stats-cache.test.ts)
 * and JetStream KV (test/services/kv-stats-cache.test.ts). An entry is read back exactly as stored, under exactly its
 * key, by this instance and by another over the same storage; a key never stored is a value (undefined).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { statsCacheKey } from '../../src/services/cache-keys.js';
import type { CachedStats, StatsCache } from '../../src/services/stats-cache.js';

/** One cache under test, made fresh for each case, and another instance over the same storage (another node). */
export interface StatsCacheHarness {
  readonly cache: StatsCache;
  sibling(): StatsCache;
}

let seq = 0;
/** The parts of a cache key no other case uses (a shared cache keeps its entries across cases). */
const freshParts = () => ({ dataset: 'brussels_extended', contentVersion: 'contract-c1', computeVersion: 'v1', lat: 50.8 + ++seq / 1e4, lon: 4.35, radiusM: 25 as number | null });
const keyOf = () => statsCacheKey(freshParts());

const value = (tag: string): CachedStats => ({
  meta: { dataset: 'brussels_extended', reference_year: 2024, sampling: 'radius', radius_m: 25, n_cells: 7, hours: 8784, generated_utc: tag },
  blocks: { air: '{"rating":8.1,"label":"Very good"}', wind: '{"rating":"é ✓"}' },
});

/** Runs the statistics cache contract against the implementation `make` builds. */
export function describeStatsCache(name: string, make: () => StatsCacheHarness | Promise<StatsCacheHarness>): void {
  describe(`${name} (statistics cache contract)`, () => {
    let h: StatsCacheHarness;
    beforeEach(async () => {
      h = await make();
    });

    it('answers a key never stored as absent', async () => {
      expect(await h.cache.get(keyOf())).toBeUndefined();
    });

    it('reads back exactly what was stored, blocks as stored text and absent metrics absent', async () => {
      const key = keyOf();
      await h.cache.put(key, value('2026-01-01T00:00:00Z'));
      const back = await h.cache.get(key);
      expect(back).toEqual(value('2026-01-01T00:00:00Z'));
      expect(back!.blocks.thermal).toBeUndefined();
      expect(Object.keys(back!.meta)).toEqual(Object.keys(value('x').meta));
    });

    it('keeps an entry under exactly its key: another compute version or radius is another entry', async () => {
      const parts = freshParts();
      await h.cache.put(statsCacheKey(parts), value('one'));
      expect(await h.cache.get(statsCacheKey({ ...parts }))).toEqual(value('one'));
      expect(await h.cache.get(statsCacheKey({ ...parts, computeVersion: 'v2' }))).toBeUndefined();
      expect(await h.cache.get(statsCacheKey({ ...parts, contentVersion: 'contract-c2' }))).toBeUndefined();
      expect(await h.cache.get(statsCacheKey({ ...parts, radiusM: 50 }))).toBeUndefined();
      expect(await h.cache.get(statsCacheKey({ ...parts, radiusM: null }))).toBeUndefined();
    });

    it('replaces an entry stored again under the same key', async () => {
      const key = keyOf();
      await h.cache.put(key, value('first'));
      await h.cache.put(key, value('second'));
      expect((await h.cache.get(key))?.meta.generated_utc).toBe('second');
    });

    it('serves what one instance stored to another over the same storage', async () => {
      const key = keyOf();
      await h.cache.put(key, value('shared'));
      const other = h.sibling();
      expect(await other.get(key)).toEqual(value('shared'));
      expect(await other.get(keyOf())).toBeUndefined();
    });
  });
}
