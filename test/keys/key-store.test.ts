import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { NotFoundError, ValidationError } from '../../src/errors.js';
import { hashKey } from '../../src/keys/key-format.js';
import { parseExpiry } from '../../src/keys/key-spec.js';
import { SqliteKeyStore } from '../../src/keys/key-store.js';
import type { KeySpec } from '../../src/keys/key-types.js';

const NOW = new Date('2025-03-10T12:00:00.000Z');

function store() {
  const db = openDatabase(':memory:');
  return { db, keys: new SqliteKeyStore(db) };
}

describe('SqliteKeyStore', () => {
  it('creates a key with defaults and finds it by the key', () => {
    const { keys } = store();
    const { key, record } = keys.create({ type: 'pk', label: 'Map page' }, NOW);
    expect(key).toMatch(/^svc_pk_[0-9A-Za-z]{32}$/);
    expect(record).toMatchObject({
      type: 'pk', label: 'Map page', cities: ['*'], products: ['*'], metrics: ['*'], origins: [],
      ratePerMin: undefined, reportsPerDay: undefined, createdUtc: NOW.toISOString(), expiresAt: undefined, active: true,
    });
    expect(keys.findByKey(key)).toEqual(record);
    expect(keys.findByKey(key.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')))).toBeUndefined();
    expect(keys.findByKey('svc_sk_short')).toBeUndefined();
  });

  it('finds a key by id, and nothing for an unknown or malformed id', () => {
    const { keys } = store();
    const { record } = keys.create({ type: 'sk', label: 'back end' }, NOW);
    expect(keys.findById(record.id)).toEqual(record);
    for (const id of [record.id + 1, 0, -1, 1.5, Number.NaN]) expect(keys.findById(id)).toBeUndefined();
  });

  it('stores only the hash of a key', () => {
    const { db, keys } = store();
    const { key } = keys.create({ type: 'sk', label: 'x' }, NOW);
    const dump = JSON.stringify(db.prepare('SELECT * FROM api_keys').all());
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(key.slice(7));
    expect(dump).toContain(hashKey(key));
  });

  it('validates and normalises scopes, origins, limits and expiry', () => {
    const { keys } = store();
    const { record } = keys.create(
      {
        type: 'pk', label: '  Site  ', cities: ['brussels', 'brussels'], products: ['historical', 'geocode'], metrics: ['air'],
        origins: ['HTTPS://Site.example/', 'https://*.example.net'], ratePerMin: 30, reportsPerDay: 0, expiresAt: '2025-12-31',
      },
      NOW,
    );
    expect(record).toMatchObject({
      label: 'Site', cities: ['brussels'], products: ['historical', 'geocode'], metrics: ['air'],
      origins: ['https://site.example', 'https://*.example.net'], ratePerMin: 30, reportsPerDay: 0, expiresAt: '2026-01-01T00:00:00.000Z',
    });
  });

  it('rejects bad specs with a clear message', () => {
    const { keys } = store();
    const bad: KeySpec[] = [
      { type: 'xx' as 'sk', label: 'a' },
      { type: 'sk' as const, label: ' ' },
      { type: 'sk' as const, label: 'a', products: ['weather' as 'map'] },
      { type: 'sk' as const, label: 'a', metrics: ['*', 'air' as const] },
      { type: 'sk' as const, label: 'a', cities: ['Brussels'] },
      { type: 'sk' as const, label: 'a', cities: [] },
      { type: 'sk' as const, label: 'a', ratePerMin: 0 },
      { type: 'sk' as const, label: 'a', origins: ['example.org'] },
      { type: 'sk' as const, label: 'a', expiresAt: '2020-01-01' },
      { type: 'sk' as const, label: 'a', expiresAt: 'tomorrow' },
    ];
    for (const spec of bad) expect(() => keys.create(spec, NOW), JSON.stringify(spec)).toThrow(ValidationError);
    expect(keys.list()).toHaveLength(0);
  });

  it('updates, clears overrides, deactivates and reactivates', () => {
    const { keys } = store();
    const { key, record } = keys.create({ type: 'sk', label: 'a', ratePerMin: 10, expiresAt: '2026-01-01T00:00:00Z' }, NOW);
    const updated = keys.update(record.id, { label: 'b', cities: ['*'], metrics: ['air', 'wind'], ratePerMin: null, expiresAt: null }, NOW);
    expect(updated).toMatchObject({ label: 'b', metrics: ['air', 'wind'], ratePerMin: undefined, expiresAt: undefined });
    const off = keys.deactivate(record.id, NOW);
    expect(off).toMatchObject({ active: false, deactivatedUtc: NOW.toISOString() });
    expect(keys.findByKey(key)?.active).toBe(false);
    const on = keys.update(record.id, { active: true }, NOW);
    expect(on).toMatchObject({ active: true, deactivatedUtc: undefined });
    expect(() => keys.update(999, { label: 'x' }, NOW)).toThrow(NotFoundError);
  });

  it('lists keys oldest first', () => {
    const { keys } = store();
    keys.create({ type: 'sk', label: 'one' }, NOW);
    keys.create({ type: 'pk', label: 'two' }, NOW);
    expect(keys.list().map((k) => k.label)).toEqual(['one', 'two']);
  });
});

describe('parseExpiry', () => {
  it('reads a date as the end of that UTC day and instants with a zone', () => {
    expect(parseExpiry('2025-06-30')).toBe('2025-07-01T00:00:00.000Z');
    expect(parseExpiry('2025-06-30T10:00:00+02:00')).toBe('2025-06-30T08:00:00.000Z');
    expect(() => parseExpiry('2025-06-30T10:00:00')).toThrow(ValidationError);
  });
});
