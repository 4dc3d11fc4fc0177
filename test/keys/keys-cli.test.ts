import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { openDatabase } from '../../src/db/database.js';
import { SqliteKeyStore } from '../../src/keys/key-store.js';

let dir: string;
let db: string;
let out: string[];
let err: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-keys-'));
  db = join(dir, 'svc.sqlite');
  out = [];
  err = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
});

afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

async function svc(...args: string[]): Promise<number> {
  return main([...args, '--db', db]);
}

describe('svc keys', () => {
  it('create --json prints the key once with its settings', async () => {
    const code = await svc('keys', 'create', '--type', 'pk', '--label', 'Map page', '--cities', 'brussels', '--products', 'historical,geocode',
      '--metrics', 'air,wind', '--origins', 'https://maps.example.org,https://*.example.net', '--rate-per-min', '60', '--expires', '2030-01-31', '--json');
    expect(code).toBe(0);
    const printed = JSON.parse(out.join('\n'));
    expect(printed).toMatchObject({
      key: expect.stringMatching(/^svc_pk_[0-9A-Za-z]{32}$/),
      id: 1, type: 'pk', label: 'Map page', active: true, cities: ['brussels'], products: ['historical', 'geocode'], metrics: ['air', 'wind'],
      origins: ['https://maps.example.org', 'https://*.example.net'], limits: { rate_per_min: 60, reports_per_day: 50 },
      expires_at: '2030-02-01T00:00:00.000Z',
    });
    const conn = openDatabase(db);
    expect(new SqliteKeyStore(conn).findByKey(printed.key)?.label).toBe('Map page');
    conn.close();
  });

  it('create prints a human summary with the key', async () => {
    expect(await svc('keys', 'create', '--type', 'sk', '--label', 'backend')).toBe(0);
    const text = out.join('\n');
    expect(text).toMatch(/svc_sk_[0-9A-Za-z]{32}/);
    expect(text).toContain('shown once');
    expect(text).toContain('600/min (default)');
  });

  it('list never prints keys; update and deactivate change them', async () => {
    await svc('keys', 'create', '--type', 'sk', '--label', 'a', '--json');
    const key = JSON.parse(out.join('\n')).key as string;
    out.length = 0;
    expect(await svc('keys', 'list', '--json')).toBe(0);
    expect(out.join('\n')).not.toContain(key);
    expect(JSON.parse(out.join('\n'))[0]).toMatchObject({ id: 1, label: 'a', active: true });

    out.length = 0;
    expect(await svc('keys', 'update', '1', '--label', 'b', '--metrics', 'thermal', '--rate-per-min', '5', '--json')).toBe(0);
    expect(JSON.parse(out.join('\n'))).toMatchObject({ label: 'b', metrics: ['thermal'], limits: { rate_per_min: 5 } });

    out.length = 0;
    expect(await svc('keys', 'deactivate', '1', '--json')).toBe(0);
    expect(JSON.parse(out.join('\n'))).toMatchObject({ active: false });

    out.length = 0;
    expect(await svc('keys', 'update', '1', '--reactivate', '--rate-per-min', 'default', '--json')).toBe(0);
    expect(JSON.parse(out.join('\n'))).toMatchObject({ active: true, limits: { rate_per_min: 600 } });
  });

  it('reports usage errors with exit code 2 and unknown ids with 1', async () => {
    expect(await svc('keys', 'create', '--type', 'xx', '--label', 'a')).toBe(2);
    expect(err.join('\n')).toContain('--type must be sk or pk');
    expect(await svc('keys', 'create', '--type', 'sk', '--label', 'a', '--cities', 'atlantis')).toBe(2);
    expect(err.join('\n')).toContain('Unknown cities: atlantis');
    expect(await svc('keys', 'create', '--type', 'sk', '--label', 'a', '--bogus')).toBe(2);
    expect(await svc('keys', 'deactivate', '42')).toBe(1);
    expect(err.join('\n')).toContain('No key with id 42');
    expect(await svc('keys', 'update')).toBe(2);
  });
});
