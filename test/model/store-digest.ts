import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Files of a generated store that record when it was made (`generated_utc`) or name a random file: left out. */
const DATED = new Set(['.zattrs', '.zmetadata', '.zmanifest']);

/**
 * SHA-256 of what a generated dataset stores, whenever it was made: every file under `dir` (chunks, statics,
 * coordinates, array metadata, the chunk index's entries) by relative path and content, in path order, except the
 * root files that hold the generation time; the index's entries file is named without its random part.
 */
export async function storeDigest(dir: string): Promise<string> {
  const files: string[] = [];
  const walk = async (sub: string): Promise<void> => {
    for (const entry of await readdir(join(dir, sub), { withFileTypes: true })) {
      const path = sub === '' ? entry.name : `${sub}/${entry.name}`;
      if (entry.isDirectory()) await walk(path);
      else if (!(sub === '' && DATED.has(entry.name))) files.push(path);
    }
  };
  await walk('');
  const hash = createHash('sha256');
  for (const path of files.sort()) {
    const name = path.replace(/^\.zmanifest\.[0-9a-f]+\.entries$/, '.zmanifest.entries');
    hash.update(`${name}\n`).update(createHash('sha256').update(await readFile(join(dir, path))).digest('hex')).update('\n');
  }
  return hash.digest('hex');
}
