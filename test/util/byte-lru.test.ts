/** ByteLru: least-recently-used eviction by bytes, and loads shared between concurrent callers. */
import { describe, expect, it } from 'vitest';
import { ByteLru, lruEntryBytes } from '../../src/util/byte-lru.js';

describe('ByteLru', () => {
  it('evicts the least recently used values once the byte budget is exceeded', () => {
    // Each entry is charged its key and bookkeeping too: room for two entries of 4 bytes, not three.
    const entry = 4 + lruEntryBytes('a');
    const lru = new ByteLru<string>(2 * entry + 2, (v) => v.length);
    lru.set('a', 'xxxx');
    lru.set('b', 'xxxx');
    expect(lru.get('a')).toBe('xxxx'); // a is now the most recent
    lru.set('c', 'xxxx');
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe('xxxx');
    expect(lru.stats()).toMatchObject({ entries: 2, bytes: 2 * entry });
    lru.set('big', 'x'.repeat(2 * entry));
    expect(lru.get('big')).toBeUndefined();
  });

  it('shares one load between concurrent callers and does not keep a failed one', async () => {
    const lru = new ByteLru<string>(100, (v) => v.length);
    let calls = 0;
    const loader = async () => `v${++calls}`;
    const [one, two] = await Promise.all([lru.load('k', loader), lru.load('k', loader)]);
    expect([one, two, calls]).toEqual(['v1', 'v1', 1]);
    await expect(lru.load('bad', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await lru.load('bad', async () => 'ok')).toBe('ok');
    expect(lru.stats()).toMatchObject({ hits: 0, misses: 3 });
  });
});
