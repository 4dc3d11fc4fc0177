/**
 * The server secret that signs tile URLs: `SVC_TILE_SECRET` when configured (required when several API nodes must
 * accept each other's URLs), otherwise one generated on the first start and kept in `<data dir>/tile-secret`,
 * readable only by its owner (mode 0600), so URLs survive restarts. The file is created in one step (written aside,
 * then linked into place), so concurrent first starts agree on one secret.
 */
import { randomBytes } from 'node:crypto';
import { chmod, link, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ValidationError } from '../errors.js';

/** Name of the secret file in the data directory. */
export const TILE_SECRET_FILE = 'tile-secret';

const GENERATED = /^[A-Za-z0-9_-]{43,}$/;

async function readSecretFile(file: string): Promise<string | undefined> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Makes the file unless it exists; returns its content either way. */
async function createSecretFile(file: string): Promise<string> {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const secret = randomBytes(32).toString('base64url');
  await writeFile(tmp, `${secret}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600); // the mode given to writeFile is filtered by the umask
  try {
    await link(tmp, file);
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return (await readSecretFile(file)) ?? '';
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

/** The signing secret: the configured one, else the data directory's (made on first use). */
export async function loadTileSecret(configured: string | undefined, dataDir: string): Promise<Uint8Array> {
  if (configured !== undefined) return Buffer.from(configured, 'utf8');
  const file = join(dataDir, TILE_SECRET_FILE);
  const text = (await readSecretFile(file)) ?? (await createSecretFile(file));
  if (!GENERATED.test(text)) {
    throw new ValidationError(`The tile secret file ${file} is malformed; delete it to have a new one made (URLs signed before then stop working).`);
  }
  await chmod(file, 0o600); // keep it private even if its mode was widened meanwhile
  return Buffer.from(text, 'utf8');
}
