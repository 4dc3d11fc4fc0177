/**
 * The demo keys of `svc demo`: a secret key with every scope, and a publishable key for the map page (product `map`,
 * its origin allowlist the local origins the server answers at). Each is made on the first start, kept in a file only
 * its owner can read (mode 0600) in the data directory, and handed out again on later starts, so repeated
 * `npm start`s do not pile up never-expiring keys. When a stored key no longer works (a new database, deactivated,
 * expired, the file damaged) a new one is made, and the caller is told why; a page key whose allowlist lacks the
 * origins of this start (another port) has them added.
 */
import { chmod, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inScope } from '../keys/entitlement.js';
import { keyTypeOf } from '../keys/key-format.js';
import type { SqliteKeyStore } from '../keys/key-store.js';
import type { KeyType } from '../keys/key-types.js';
import { normalizeOriginEntry } from '../keys/origins.js';

/** Name of the key file in the data directory. */
export const DEMO_KEY_FILE = 'demo-key';

/** Label of the demo key in the key store. */
const DEMO_KEY_LABEL = 'demo';

/** Name of the map page's publishable key file in the data directory. */
export const DEMO_PAGE_KEY_FILE = 'demo-page-key';

/** Label of the map page's publishable key in the key store. */
const DEMO_PAGE_KEY_LABEL = 'demo map page';

/** The demo key to use and how it was obtained. */
export type DemoKey =
  | { readonly key: string; readonly file: string; readonly outcome: 'created' | 'reused' }
  | { readonly key: string; readonly file: string; readonly outcome: 'replaced'; readonly reason: string };

/** The stored key, or why it cannot be used (undefined: no file yet). */
async function storedKey(file: string, store: SqliteKeyStore, now: Date, type: KeyType): Promise<{ key: string } | { reason: string } | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const key = text.trim();
  if (keyTypeOf(key) !== type) return { reason: `${file} does not hold a ${type === 'sk' ? 'secret' : 'publishable'} key` };
  const record = store.findByKey(key);
  if (record === undefined) return { reason: 'it is not in this key database' };
  if (!record.active) return { reason: 'it was deactivated' };
  if (record.expiresAt !== undefined && now.getTime() >= Date.parse(record.expiresAt)) return { reason: `it expired at ${record.expiresAt}` };
  return { key };
}

/** Writes the key so that only its owner can read it, replacing any previous file in one step. */
async function writeKeyFile(file: string, key: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${key}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600); // the mode given to writeFile is filtered by the umask
  await rename(tmp, file);
}

/** The demo key of `dataDir`: the stored one while it works, otherwise a new secret key with every scope. */
export async function ensureDemoKey(dataDir: string, store: SqliteKeyStore, now: Date): Promise<DemoKey> {
  const file = join(dataDir, DEMO_KEY_FILE);
  const stored = await storedKey(file, store, now, 'sk');
  if (stored !== undefined && 'key' in stored) {
    await chmod(file, 0o600); // keep it private even if its mode was widened meanwhile
    return { key: stored.key, file, outcome: 'reused' };
  }
  const { key } = store.create({ type: 'sk', label: DEMO_KEY_LABEL }, now);
  await writeKeyFile(file, key);
  return stored === undefined ? { key, file, outcome: 'created' } : { key, file, outcome: 'replaced', reason: stored.reason };
}

/**
 * The map page's publishable key of `dataDir`: product `map` only, allowed from `origins` (the addresses the page is
 * served at). The stored one while it works, with any of `origins` it lacks added; otherwise a new one.
 */
export async function ensureDemoPageKey(dataDir: string, store: SqliteKeyStore, origins: readonly string[], now: Date): Promise<DemoKey> {
  const file = join(dataDir, DEMO_PAGE_KEY_FILE);
  const wanted = origins.map(normalizeOriginEntry);
  let stored = await storedKey(file, store, now, 'pk');
  if (stored !== undefined && 'key' in stored && !inScope(store.findByKey(stored.key)!.products, 'map')) {
    stored = { reason: 'it no longer holds the product map' };
  }
  if (stored !== undefined && 'key' in stored) {
    const record = store.findByKey(stored.key)!;
    const lacking = wanted.filter((o) => !record.origins.includes(o));
    if (lacking.length > 0) store.update(record.id, { origins: [...record.origins, ...lacking] }, now);
    await chmod(file, 0o600);
    return { key: stored.key, file, outcome: 'reused' };
  }
  const { key } = store.create({ type: 'pk', label: DEMO_PAGE_KEY_LABEL, products: ['map'], origins: wanted }, now);
  await writeKeyFile(file, key);
  return stored === undefined ? { key, file, outcome: 'created' } : { key, file, outcome: 'replaced', reason: stored.reason };
}
