import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { statsCacheKey, type StatsCacheKey } from '../../src/services/cache-keys.js';
import { cachedStatsBytes, MemoryStatsCache } from '../../src/services/memory-stats-cache.js';
import { SqliteStatsCache, toCachedStats, type CachedStats, type StatsCache } from '../../src/services/stats-cache.js';
import type { StatsComputation } from '../../src/compute/compute-types.js';
import { lruEntryBytes } from '../../src/util/byte-lru.js';
import { heapGrowth } from '../helpers/heap-growth.js';
import { describeStatsCache } from '../contracts/stats-cache-contract.js';

const BUDGET = 1024 * 1024;
const parts = { dataset: 'brussels_extended', contentVersion: 'v1', computeVersion: 'c1', lat: 50.84658, lon: 4.35194, radiusM: 25 };

const value = (label: string): CachedStats => ({
  meta: { dataset: 'brussels_extended', reference_year: 2023, sampling: 'radius', radius_m: 25, n_cells: 5, hours: 8760, generated_utc: 'g' },
  blocks: { air: `{"label":"${label}"}`, wind: '{"score":5}' },
});

const LABELS = ['Excellent', 'Very good', 'Good', 'Fairly good', 'Moderate', 'Poor', 'Very poor', 'Bad', 'Very bad', 'Horrible'];

/** A block shaped like the real ones (some 700 characters of JSON: scores, labels, a distribution, months). */
const block = (i: number, salt: number) => ({
  rating: (i % 100) / 10, score: ((i * 7) % 100) / 10, label: LABELS[i % 10], hours_graded: 8760,
  distribution_pct: Object.fromEntries(LABELS.map((label, k) => [label, ((i + k * salt) % 997) / 10])),
  monthly_mean: Array.from({ length: 12 }, (_, m) => ((i * 3 + m * salt) % 503) / 10),
  limiting: [LABELS[(i + salt) % 10]], worst_moment_hours: i % 24, exceedance_pct: { frequent: (i % 333) / 10, danger: (i % 7) / 10 },
});

/** A computation as the back end returns one. */
const computation = (i: number): StatsComputation => ({
  dataset: 'brussels_extended', reference_year: 2023, content_version: 'v1', sampling: 'radius', radius_m: 25, n_cells: 5,
  hours: 8760, generated_utc: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString().slice(0, 19) + 'Z',
  blocks: { air: block(i, 3), wind: block(i, 5), thermal: block(i, 11) },
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

describeStatsCache('MemoryStatsCache over SQLite', () => {
  const inner = new SqliteStatsCache(openDatabase(':memory:'), () => 0);
  return { cache: new MemoryStatsCache(inner, BUDGET), sibling: () => new MemoryStatsCache(inner, BUDGET) };
});

describe('MemoryStatsCache', () => {
  it('writes through and answers repeated reads from memory', () => {
    const { inner, cache, counts } = counted();
    const memory = new MemoryStatsCache(cache, BUDGET);
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
    const memory = new MemoryStatsCache(cache, BUDGET);
    expect(memory.get(key)).toEqual(value('Moderate'));
    expect(memory.get(key)).toEqual(value('Moderate'));
    expect(counts.gets).toBe(1);
  });

  it('keeps only what its byte budget holds, least recently used out first', () => {
    const { cache, counts } = counted();
    const keys = [10, 20, 30].map((radiusM) => statsCacheKey({ ...parts, radiusM }));
    // An entry weighs what it holds and its key costs the LRU: two fit, three do not.
    const one = cachedStatsBytes(value('x')) + lruEntryBytes(keys[0]!.id);
    const memory = new MemoryStatsCache(cache, 2 * one + one / 2);
    for (const key of keys) memory.put(key, value('x'));
    expect(memory.stats().entries).toBe(2);
    counts.gets = 0;
    expect(memory.get(keys[2]!)).toBeDefined();
    expect(memory.get(keys[1]!)).toBeDefined();
    expect(counts.gets).toBe(0);
    expect(memory.get(keys[0]!)).toEqual(value('x'));
    expect(counts.gets).toBe(1);
  });

  it('counts what its entries really hold: the weight is within 20 % of the heap they take, measured', () => {
    const n = 4_000;
    const memory = new MemoryStatsCache({ get: () => undefined, put: () => {} }, 1024 ** 3);
    // Entries made as a computation makes them (blocks serialised by JSON.stringify), each at its own location.
    const grown = heapGrowth(() => {
      for (let i = 0; i < n; i++) memory.put(statsCacheKey({ ...parts, lat: 50 + i / 1e5 }), toCachedStats(computation(i)));
    });
    const { entries, bytes } = memory.stats();
    expect(entries).toBe(n);
    expect(grown / bytes).toBeGreaterThan(0.8);
    expect(grown / bytes).toBeLessThan(1.2);
  });

  it('still serves from memory when the inner cache fails to store', () => {
    const failing: StatsCache = {
      get: () => undefined,
      put: () => {
        throw new Error('disk full');
      },
    };
    const memory = new MemoryStatsCache(failing, BUDGET);
    const key = statsCacheKey(parts);
    expect(() => memory.put(key, value('Good'))).toThrow('disk full');
    expect(memory.get(key)).toEqual(value('Good'));
  });
});
