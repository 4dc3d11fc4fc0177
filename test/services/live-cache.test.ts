import { describe, expect, it } from 'vitest';
import type { RecordsResponse } from '../../src/upstream/model-service-contract.js';
import { LiveCache, liveCacheKey, REALTIME_TTL_MS } from '../../src/services/live-cache.js';
import { ManualClock } from './support/manual-clock.js';

const answer = (n: number): RecordsResponse => ({
  dataset: 'brussels_extended', resolution_m: 10, sampling: 'radius', n_cells: n, issued: '2025-07-15T12:00:00Z', records: [],
});
const key = (lat: number, radiusM = 10) => liveCacheKey({ product: 'realtime', dataset: 'brussels_extended', lat, lon: 4.35194, radiusM });

describe('live cache keys', () => {
  it('name product, dataset, coordinates at 5 decimals and radius', () => {
    expect(key(50.8466).id).toBe('realtime|brussels_extended|50.84660|4.35194|10');
    expect(key(50.8466).id).toBe(key(50.846600000001).id);
    expect(key(50.8466, 12.5).id).not.toBe(key(50.8466).id);
    expect(liveCacheKey({ product: 'forecast', dataset: 'brussels_extended', lat: 50.8466, lon: 4.35194, radiusM: 10 }).id).not.toBe(key(50.8466).id);
  });
});

describe('LiveCache', () => {
  it('serves an entry for exactly 5 minutes after it was fetched', () => {
    const clock = new ManualClock(0);
    const cache = new LiveCache({ clock });
    cache.put(key(1), answer(1));
    clock.advance(REALTIME_TTL_MS - 1);
    expect(cache.get(key(1))?.response.n_cells).toBe(1);
    clock.advance(1);
    expect(cache.get(key(1))).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps at most maxEntries, dropping the oldest, and sweeps expired entries on put', () => {
    const clock = new ManualClock(0);
    const cache = new LiveCache({ clock, maxEntries: 3 });
    for (let i = 1; i <= 4; i++) cache.put(key(i), answer(i));
    expect(cache.get(key(1))).toBeUndefined();
    expect(cache.get(key(4))?.response.n_cells).toBe(4);
    expect(cache.size).toBe(3);
    clock.advance(REALTIME_TTL_MS);
    cache.put(key(5), answer(5));
    expect(cache.size).toBe(1);
  });

  it('keeps within its byte budget, counting the parsed answer and its key, the oldest out first', () => {
    const clock = new ManualClock(0);
    const probe = new LiveCache({ clock });
    probe.put(key(1), answer(1));
    const one = probe.bytes;
    // The answer's objects and strings, its key text and the records: more than the JSON text alone.
    expect(one).toBeGreaterThan(JSON.stringify(answer(1)).length);
    const cache = new LiveCache({ clock, budgetBytes: 2 * one + one / 2 });
    for (let i = 1; i <= 3; i++) cache.put(key(i), answer(i));
    expect([1, 2, 3].map((i) => cache.get(key(i)) !== undefined)).toEqual([false, true, true]);
    expect(cache.bytes).toBeLessThanOrEqual(2 * one + one / 2);
    const tiny = new LiveCache({ clock, budgetBytes: one - 1 });
    expect(tiny.put(key(1), answer(1)).response.n_cells).toBe(1); // answered, not kept
    expect(tiny.size).toBe(0);
  });

  it('replaces an entry put again, restarting its lifetime', () => {
    const clock = new ManualClock(0);
    const cache = new LiveCache({ clock });
    cache.put(key(1), answer(1));
    clock.advance(REALTIME_TTL_MS - 10);
    cache.put(key(1), answer(2));
    clock.advance(20);
    expect(cache.get(key(1))?.response.n_cells).toBe(2);
  });
});
