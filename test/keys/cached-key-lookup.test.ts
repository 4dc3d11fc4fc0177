import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { CachedKeyLookup, KEY_CACHE_TTL_MS } from '../../src/keys/cached-key-lookup.js';
import { SqliteKeyStore } from '../../src/keys/key-store.js';
import type { ApiKeyRecord, KeyLookup } from '../../src/keys/key-types.js';

const NOW = new Date('2025-03-10T12:00:00.000Z');

/** The key store with its look-ups counted, behind a cache on a hand-driven clock. */
function setup(options: { maxEntries?: number } = {}) {
  const store = new SqliteKeyStore(openDatabase(':memory:'));
  let lookups = 0;
  const counted: KeyLookup = {
    findByKey(key: string): ApiKeyRecord | undefined {
      lookups++;
      return store.findByKey(key);
    },
    findById(id: number): ApiKeyRecord | undefined {
      lookups++;
      return store.findById(id);
    },
  };
  const clock = { ms: NOW.getTime() };
  const cached = new CachedKeyLookup(counted, { now: () => clock.ms, ...options });
  return { store, cached, clock, lookups: () => lookups };
}

describe('CachedKeyLookup', () => {
  it('asks the store once per key within the time-to-live', () => {
    const { store, cached, lookups } = setup();
    const { key, record } = store.create({ type: 'sk', label: 'hot' }, NOW);
    for (let i = 0; i < 5; i++) expect(cached.findByKey(key)).toEqual(record);
    expect(lookups()).toBe(1);
  });

  it("sees an operator's change once the entry expires", () => {
    const { store, cached, clock, lookups } = setup();
    const { key, record } = store.create({ type: 'sk', label: 'soon off' }, NOW);
    expect(cached.findByKey(key)?.active).toBe(true);
    store.deactivate(record.id, NOW);
    clock.ms += KEY_CACHE_TTL_MS - 1;
    expect(cached.findByKey(key)?.active).toBe(true);
    clock.ms += 1;
    expect(cached.findByKey(key)?.active).toBe(false);
    expect(lookups()).toBe(2);
  });

  it('remembers look-ups by id for the same time, and sees changes after it', () => {
    const { store, cached, clock, lookups } = setup();
    const { record } = store.create({ type: 'sk', label: 'tiles' }, NOW);
    for (let i = 0; i < 5; i++) expect(cached.findById(record.id)?.active).toBe(true);
    expect(lookups()).toBe(1);
    store.deactivate(record.id, NOW);
    clock.ms += KEY_CACHE_TTL_MS;
    expect(cached.findById(record.id)?.active).toBe(false);
    expect(cached.findById(record.id + 1)).toBeUndefined();
    expect(cached.findById(record.id + 1)).toBeUndefined();
    expect(lookups()).toBe(4);
  });

  it('never caches unknown keys, so a key issued a moment ago works at once', () => {
    const { store, cached, lookups } = setup();
    const unknown = `svc_sk_${'A'.repeat(32)}`;
    expect(cached.findByKey(unknown)).toBeUndefined();
    expect(cached.findByKey(unknown)).toBeUndefined();
    expect(lookups()).toBe(2);
    const { key } = store.create({ type: 'pk', label: 'new' }, NOW);
    expect(cached.findByKey(key)?.label).toBe('new');
  });

  it('refuses malformed keys without asking the store', () => {
    const { cached, lookups } = setup();
    for (const bad of ['', 'svc_sk_short', 'Bearer x']) expect(cached.findByKey(bad)).toBeUndefined();
    expect(lookups()).toBe(0);
  });

  it('holds at most maxEntries keys, dropping the oldest', () => {
    const { store, cached, lookups } = setup({ maxEntries: 2 });
    const keys = ['a', 'b', 'c'].map((label) => store.create({ type: 'sk', label }, NOW).key);
    for (const key of keys) cached.findByKey(key);
    expect(lookups()).toBe(3);
    cached.findByKey(keys[2]);
    cached.findByKey(keys[1]);
    expect(lookups()).toBe(3);
    cached.findByKey(keys[0]);
    expect(lookups()).toBe(4);
  });

  it('drops expired keys from memory at the next look-up in the store', () => {
    const { store, cached, clock } = setup();
    const [first, second] = ['a', 'b'].map((label) => store.create({ type: 'sk', label }, NOW).key);
    cached.findByKey(first!);
    clock.ms += 1;
    cached.findByKey(second!);
    expect(cached.size).toBe(2);
    clock.ms += KEY_CACHE_TTL_MS;
    expect(cached.findByKey(`svc_sk_${'B'.repeat(32)}`)).toBeUndefined();
    expect(cached.size).toBe(0);
  });
});
