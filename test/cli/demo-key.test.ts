/**
 * The demo key of `svc demo` (`npm start`): one key, made on the first start and kept in a file only its owner can
 * read, printed again on later starts; a new one (with the reason) only when the stored one no longer works.
 */
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoBanner, localOrigins, mapPageUrl } from '../../src/cli/commands/demo.js';
import { DEMO_KEY_FILE, DEMO_PAGE_KEY_FILE, ensureDemoKey, ensureDemoPageKey } from '../../src/cli/demo-key.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { SqliteKeyStore } from '../../src/keys/key-store.js';

const NOW = new Date('2025-03-10T12:00:00Z');

let dir: string;
let db: Database;
let store: SqliteKeyStore;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-demo-key-'));
  db = openDatabase(join(dir, 'svc.sqlite'));
  store = new SqliteKeyStore(db);
});
afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

const mode = async (file: string) => (await stat(file)).mode & 0o777;

describe('ensureDemoKey', () => {
  it('creates a full-scope secret key on the first start and keeps it in a file only the owner can read', async () => {
    const first = await ensureDemoKey(dir, store, NOW);
    expect(first).toMatchObject({ outcome: 'created', file: join(dir, DEMO_KEY_FILE) });
    expect(first.key).toMatch(/^svc_sk_[0-9A-Za-z]{32}$/);
    expect((await readFile(first.file, 'utf8')).trim()).toBe(first.key);
    expect(await mode(first.file)).toBe(0o600);
    expect(store.findByKey(first.key)).toMatchObject({ label: 'demo', active: true, cities: ['*'], products: ['*'], metrics: ['*'] });
  });

  it('hands out the same key on later starts without making another', async () => {
    const first = await ensureDemoKey(dir, store, NOW);
    const again = await ensureDemoKey(dir, store, new Date(NOW.getTime() + 86_400_000));
    expect(again).toEqual({ key: first.key, file: first.file, outcome: 'reused' });
    expect(store.list()).toHaveLength(1);
  });

  it('makes the file private again if its mode was widened', async () => {
    const first = await ensureDemoKey(dir, store, NOW);
    await chmod(first.file, 0o644);
    await ensureDemoKey(dir, store, NOW);
    expect(await mode(first.file)).toBe(0o600);
  });

  it('replaces a deactivated key and says so', async () => {
    const first = await ensureDemoKey(dir, store, NOW);
    store.deactivate(store.findByKey(first.key)!.id, NOW);
    const next = await ensureDemoKey(dir, store, NOW);
    expect(next).toMatchObject({ outcome: 'replaced', reason: 'it was deactivated' });
    expect(next.key).not.toBe(first.key);
    expect((await readFile(next.file, 'utf8')).trim()).toBe(next.key);
    expect(await mode(next.file)).toBe(0o600);
    expect(await ensureDemoKey(dir, store, NOW)).toMatchObject({ key: next.key, outcome: 'reused' });
  });

  it('replaces an expired key', async () => {
    const first = await ensureDemoKey(dir, store, NOW);
    store.update(store.findByKey(first.key)!.id, { expiresAt: '2025-03-10T12:30:00.000Z' }, NOW);
    const next = await ensureDemoKey(dir, store, new Date('2025-03-11T00:00:00Z'));
    expect(next).toMatchObject({ outcome: 'replaced', reason: 'it expired at 2025-03-10T12:30:00.000Z' });
  });

  it('replaces a key the database does not know (a new or deleted database)', async () => {
    const first = await ensureDemoKey(dir, store, NOW);
    const other = openDatabase(':memory:');
    try {
      const next = await ensureDemoKey(dir, new SqliteKeyStore(other), NOW);
      expect(next).toMatchObject({ outcome: 'replaced', reason: 'it is not in this key database' });
      expect(next.key).not.toBe(first.key);
    } finally {
      other.close();
    }
  });

  it('replaces a damaged key file', async () => {
    await writeFile(join(dir, DEMO_KEY_FILE), 'not a key\n');
    const next = await ensureDemoKey(dir, store, NOW);
    expect(next.outcome).toBe('replaced');
    expect(next.key).toMatch(/^svc_sk_/);
  });
});

describe('ensureDemoPageKey', () => {
  const ORIGINS = ['http://127.0.0.1:8080', 'http://localhost:8080'];

  it('creates a publishable key for the map alone, allowed from the local origins, kept private', async () => {
    const page = await ensureDemoPageKey(dir, store, ORIGINS, NOW);
    expect(page).toMatchObject({ outcome: 'created', file: join(dir, DEMO_PAGE_KEY_FILE) });
    expect(page.key).toMatch(/^svc_pk_[0-9A-Za-z]{32}$/);
    expect(await mode(page.file)).toBe(0o600);
    expect(store.findByKey(page.key)).toMatchObject({ type: 'pk', label: 'demo map page', products: ['map'], origins: ORIGINS });
  });

  it('hands out the same key later, adding the origins of another port, and never touches the secret demo key', async () => {
    const demo = await ensureDemoKey(dir, store, NOW);
    const page = await ensureDemoPageKey(dir, store, ORIGINS, NOW);
    const again = await ensureDemoPageKey(dir, store, ['http://127.0.0.1:9090', 'http://localhost:9090'], NOW);
    expect(again).toEqual({ key: page.key, file: page.file, outcome: 'reused' });
    expect(store.findByKey(page.key)!.origins).toEqual([...ORIGINS, 'http://127.0.0.1:9090', 'http://localhost:9090']);
    expect(store.list()).toHaveLength(2);
    expect((await ensureDemoKey(dir, store, NOW)).key).toBe(demo.key);
  });

  it('replaces a page key that no longer holds the map, or a file holding a secret key', async () => {
    const page = await ensureDemoPageKey(dir, store, ORIGINS, NOW);
    store.update(store.findByKey(page.key)!.id, { products: ['historical'] }, NOW);
    const next = await ensureDemoPageKey(dir, store, ORIGINS, NOW);
    expect(next).toMatchObject({ outcome: 'replaced', reason: 'it no longer holds the product map' });
    const demo = await ensureDemoKey(dir, store, NOW);
    await writeFile(join(dir, DEMO_PAGE_KEY_FILE), `${demo.key}\n`);
    const fixed = await ensureDemoPageKey(dir, store, ORIGINS, NOW);
    expect(fixed.outcome).toBe('replaced');
    expect(fixed.key).toMatch(/^svc_pk_/);
  });

  it('names both loopback origins of a local server, only its own origin otherwise', () => {
    expect(localOrigins('http://127.0.0.1:8080')).toEqual(ORIGINS);
    expect(localOrigins('http://localhost:8080')).toEqual(ORIGINS);
    expect(localOrigins('http://10.0.0.5:8080')).toEqual(['http://10.0.0.5:8080']);
  });
});

describe('the demo banner', () => {
  it('prints the map page with its key in the fragment', async () => {
    const demo = await ensureDemoKey(dir, store, NOW);
    const page = await ensureDemoPageKey(dir, store, ['http://127.0.0.1:8080'], NOW);
    const banner = demoBanner(demo, { origin: 'http://127.0.0.1:8080', docsUrl: 'http://127.0.0.1:8080/docs' }, page);
    expect(mapPageUrl('http://127.0.0.1:8080', page.key)).toBe(`http://127.0.0.1:8080/map/#key=${page.key}`);
    expect(banner).toContain(`  http://127.0.0.1:8080/map/#key=${page.key}\n`);
  });

  const at = { origin: 'http://127.0.0.1:8080', docsUrl: 'http://127.0.0.1:8080/docs' };

  it('prints the key, a first request against this server and the docs', async () => {
    const demo = await ensureDemoKey(dir, store, NOW);
    const banner = demoBanner(demo, at);
    expect(banner).toContain(`  ${demo.key}\n`);
    expect(banner).toContain('readable only by you');
    expect(banner).toContain(`export BASE_URL=http://127.0.0.1:8080/v1 KEY=${demo.key}`);
    expect(banner).toContain('"$BASE_URL/historical/stats?lat=50.84675&lon=4.35224&radius=25"');
    expect(banner).toContain('http://127.0.0.1:8080/docs');
    expect(demoBanner({ ...demo, outcome: 'reused' }, at)).not.toContain('created');
    expect(demoBanner({ ...demo, outcome: 'replaced', reason: 'it was deactivated' }, at)).toContain('no longer works (it was deactivated)');
  });
});
