/**
 * The URL-signing secret: the configured one wins; otherwise one is made on first use, kept readable only by its owner
 * and reused, concurrent first starts agree on it, and a damaged file is refused with advice instead of replaced.
 */
import { mkdtemp, readFile, rm, stat, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { loadTileSecret, TILE_SECRET_FILE } from '../../src/map/tile-secret.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-secret-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe('loadTileSecret', () => {
  it('uses the configured secret and writes no file', async () => {
    expect(Buffer.from(await loadTileSecret('x'.repeat(40), dir)).toString()).toBe('x'.repeat(40));
    await expect(stat(join(dir, TILE_SECRET_FILE))).rejects.toThrow();
  });

  it('makes a 256-bit secret once, mode 0600, and reuses it (restoring the mode)', async () => {
    const first = await loadTileSecret(undefined, dir);
    const file = join(dir, TILE_SECRET_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await chmod(file, 0o644);
    expect(Buffer.from(await loadTileSecret(undefined, dir)).equals(Buffer.from(first))).toBe(true);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('gives concurrent first starts one and the same secret', async () => {
    const secrets = await Promise.all(Array.from({ length: 8 }, () => loadTileSecret(undefined, dir)));
    for (const s of secrets) expect(Buffer.from(s).equals(Buffer.from(secrets[0]))).toBe(true);
  });

  it('refuses a damaged file, naming it, rather than replacing it silently', async () => {
    await writeFile(join(dir, TILE_SECRET_FILE), 'short\n');
    const err = await loadTileSecret(undefined, dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toContain(TILE_SECRET_FILE);
  });
});
