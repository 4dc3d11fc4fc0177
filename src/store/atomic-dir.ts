/**
 * Atomic directory and file replacement. Content is built in a hidden temporary sibling (same filesystem, so the
 * final `rename` is atomic) and moved into place only on success; on failure the sibling is removed. Readers see
 * either the old content or the new, never a half-written directory.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { DatasetError } from '../errors.js';
import { removeTree } from './remove-tree.js';

/** A directory under construction next to its final path. */
export interface AtomicDir {
  /** Final path. */
  readonly target: string;
  /** Temporary sibling to write into. */
  readonly tmpDir: string;
  /** Moves the temporary directory into place (replacing an existing target only if `overwrite` was set). */
  commit(): Promise<void>;
  /** Removes the temporary directory; safe to call more than once, and after a failed commit. */
  abort(): Promise<void>;
}

/** Options of `beginAtomicDir`. */
export interface AtomicDirOptions {
  /** Replace an existing target on commit; otherwise an existing target is an error. Default false. */
  readonly overwrite?: boolean;
}

/** A hidden sibling path of `target`, unique per process and call: `.<name>.<tag>-<pid>-<random>`. */
export function siblingPath(target: string, tag: string): string {
  const abs = resolve(target);
  return join(dirname(abs), `.${basename(abs)}.${tag}-${process.pid}-${randomBytes(4).toString('hex')}`);
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/**
 * Replaces `target` with the directory `prepared` (both on the same filesystem). An existing target is moved aside
 * first and restored if the second rename fails, then deleted.
 */
export async function swapDirectory(prepared: string, target: string): Promise<void> {
  if (!(await exists(target))) {
    await rename(prepared, target);
    return;
  }
  const old = siblingPath(target, 'old');
  await rename(target, old);
  try {
    await rename(prepared, target);
  } catch (err) {
    await rename(old, target);
    throw err;
  }
  await removeTree(old);
}

/** Creates the temporary sibling of `target` and returns the handle that commits or aborts it. */
export async function beginAtomicDir(target: string, options: AtomicDirOptions = {}): Promise<AtomicDir> {
  const abs = resolve(target);
  if (!options.overwrite && (await exists(abs))) {
    throw new DatasetError(`${abs} already exists; refusing to overwrite it.`);
  }
  await mkdir(dirname(abs), { recursive: true });
  const tmpDir = siblingPath(abs, 'tmp');
  await mkdir(tmpDir);
  let state: 'open' | 'committed' | 'aborted' = 'open';
  return {
    target: abs,
    tmpDir,
    async commit() {
      if (state !== 'open') throw new DatasetError(`Cannot commit ${abs}: the write was already ${state}.`);
      if (!options.overwrite && (await exists(abs))) {
        throw new DatasetError(`${abs} appeared while it was being written; refusing to overwrite it.`);
      }
      await swapDirectory(tmpDir, abs);
      state = 'committed';
    },
    async abort() {
      if (state === 'committed') return;
      state = 'aborted';
      await removeTree(tmpDir);
    },
  };
}

/** Builds a directory with `build(tmpDir)` and commits it; on any failure the temporary directory is removed. */
export async function withAtomicDir<T>(
  target: string,
  build: (tmpDir: string) => Promise<T>,
  options: AtomicDirOptions = {},
): Promise<T> {
  const dir = await beginAtomicDir(target, options);
  try {
    const result = await build(dir.tmpDir);
    await dir.commit();
    return result;
  } catch (err) {
    await dir.abort();
    throw err;
  }
}

/** Writes a file atomically: a temporary sibling, then a rename over the target. */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = siblingPath(path, 'tmp');
  try {
    await writeFile(tmp, data);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/**
 * Writes a file atomically through `write(tmp)`, which writes the whole file at the temporary path `tmp` (streamed,
 * for files too large to hold), then renames it over `path`; on any failure the temporary file is removed.
 */
export async function writeFileAtomicWith<T>(path: string, write: (tmp: string) => Promise<T>): Promise<T> {
  const tmp = siblingPath(path, 'tmp');
  try {
    const result = await write(tmp);
    await rename(tmp, path);
    return result;
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
