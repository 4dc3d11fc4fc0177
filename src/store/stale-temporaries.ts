/**
 * Leftovers of interrupted atomic writes (atomic-dir.ts): a process killed while it built `<dir>/<name>` leaves its
 * hidden sibling `.<name>.tmp-<pid>-<hex>` (or, killed amid the final swap, `.<name>.old-<pid>-<hex>`) behind. The
 * target itself is never half-written; the leftover only holds disk space. A later writer of the same target removes
 * the leftovers of processes that no longer run, and says so.
 */
import { readdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { removeTree } from './remove-tree.js';

/** A removed leftover: its path and the process that left it. */
export interface StaleTemporary {
  readonly path: string;
  readonly pid: number;
}

/** Whether a process with this id runs (one we may not signal runs too). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The leftovers of `target` whose writer no longer runs (this process's own never count). */
export async function staleTemporaries(target: string): Promise<StaleTemporary[]> {
  const abs = resolve(target);
  const prefix = `.${basename(abs)}.`;
  const pattern = /^(?:tmp|old)-(\d+)-[0-9a-f]+$/;
  const names = await readdir(dirname(abs)).catch(() => [] as string[]);
  const found: StaleTemporary[] = [];
  for (const name of names) {
    const match = name.startsWith(prefix) ? pattern.exec(name.slice(prefix.length)) : null;
    if (match === null) continue;
    const pid = Number(match[1]);
    if (pid !== process.pid && !running(pid)) found.push({ path: join(dirname(abs), name), pid });
  }
  return found;
}

/** Removes the leftovers of `target` whose writer no longer runs; returns what it removed. */
export async function removeStaleTemporaries(target: string): Promise<StaleTemporary[]> {
  const found = await staleTemporaries(target);
  for (const leftover of found) await removeTree(leftover.path);
  return found;
}
