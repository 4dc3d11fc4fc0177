import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { statsCacheKey, type StatsCacheKey } from '../../src/services/cache-keys.js';
import { MemoryStatsCache } from '../../src/services/memory-stats-cache.js';
import { SqliteStatsCache, type CachedStats, type StatsCache } from '../../src/services/stats-cache.js';

const parts = { dataset: 'brussels_extended', contentVersion: 'v1', computeVersion: 'c1', lat: 50.84658, lon: 4.35194, radiusM: 25 };

const value = (label: string): CachedStats => ({
  meta: { dataset: 'brussels_extended', reference_year: 2023, sampling: 'radius', radius_m: 25, n_cells: 5, hours: 8760, generated_utc: 'g' },
  blocks: { air: `{"label":"${label}"}`, wind: '{"score":5}' },
});

/** A SQLite cache with its reads and writes counted. */
function counted() {
  const inner = new SqliteStatsCache(openDatabase(':memory:'), () => 0);
  const counts = { gets: 0, puts: 0 };
  const cache: StatsCache = {
    get(key: StatsCacheKey) {
      counts.gets++;
      return inner.get(key);
    },
    put(key: StatsCacheKey, v: CachedStats) {
      counts.puts++;
      inner.put(key, v);
    },
  };
  return { inner, cache, counts };
}

describe('MemoryStatsCache', () => {
  it('writes through and answers repeated reads from memory', () => {
    const { inner, cache, counts } = counted();
    const memory = new MemoryStatsCache(cache);
    const key = statsCacheKey(parts);
    expect(memory.get(key)).toBeUndefined();
    memory.put(key, value('Good'));
    expect(counts.puts).toBe(1);
    expect(inner.get(key)).toEqual(value('Good'));
    for (let i = 0; i < 3; i++) expect(memory.get(key)).toEqual(value('Good'));
    expect(counts.gets).toBe(1);
  });

  it('loads an entry stored by another process once, then keeps it', () => {
    const { inner, cache, counts } = counted();
    const key = statsCacheKey(parts);
    inner.put(key, value('Moderate'));
    const memory = new MemoryStatsCache(cache);
    expect(memory.get(key)).toEqual(value('Moderate'));
    expect(memory.get(key)).toEqual(value('Moderate'));
    expect(counts.gets).toBe(1);
  });

  it('keeps only what its byte budget holds, least recently used out first', () => {
    const { cache, counts } = counted();
    // Each entry weighs 512 bytes of allowance plus its block text: two fit in 1,200 bytes, three do not.
    const memory = new MemoryStatsCache(cache, 1_200);
    const keys = [10, 20, 30].map((radiusM) => statsCacheKey({ ...parts, radiusM }));
    for (const key of keys) memory.put(key, value('x'));
    counts.gets = 0;
    expect(memory.get(keys[2])).toBeDefined();
    expect(memory.get(keys[1])).toBeDefined();
    expect(counts.gets).toBe(0);
    expect(memory.get(keys[0])).toEqual(value('x'));
    expect(counts.gets).toBe(1);
  });

  it('still serves from memory when the inner cache fails to store', () => {
    const failing: StatsCache = {
      get: () => undefined,
      put: () => {
        throw new Error('disk full');
      },
    };
    const memory = new MemoryStatsCache(failing);
    const key = statsCacheKey(parts);
    expect(() => memory.put(key, value('Good'))).toThrow('disk full');
    expect(memory.get(key)).toEqual(value('Good'));
  });
});
