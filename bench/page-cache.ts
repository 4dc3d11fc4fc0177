/**
 * Truly cold reads for benchmarks: evicting a dataset's files from the page cache (each file synced, then
 * `posix_fadvise(POSIX_FADV_DONTNEED)`, which needs no root and leaves every other file cached), checking what stayed
 * resident (`fincore`), and the bytes this process has read from storage (`read_bytes` of `/proc/self/io`, which counts
 * only reads that reached the block device, for every thread of the process).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every regular file under `dir`. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

const EVICT = `
import os, sys
for path in sys.stdin.read().split("\\n"):
    if path:
        fd = os.open(path, os.O_RDONLY)
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
`;

/** Evicts every file under `dir` from the page cache; returns how many files. */
export function evictFromPageCache(dir: string): number {
  const files = filesUnder(dir);
  execFileSync('python3', ['-c', EVICT], { input: files.join('\n') });
  return files.length;
}

/** Bytes of the files under `dir` still in the page cache (`fincore`), or undefined where fincore is missing. */
export function residentBytes(dir: string): number | undefined {
  const files = filesUnder(dir);
  try {
    let total = 0;
    for (let i = 0; i < files.length; i += 500) {
      const out = execFileSync('fincore', ['--bytes', '--noheadings', '--output', 'RES', ...files.slice(i, i + 500)], { encoding: 'utf8' });
      for (const line of out.split('\n')) total += Number(line.trim() || 0);
    }
    return total;
  } catch {
    return undefined;
  }
}

/** Bytes this process (all its threads) has read from storage so far; undefined where the kernel does not say. */
export function storageReadBytes(): number | undefined {
  try {
    const match = /^read_bytes:\s*(\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Drops `dir`'s files from the page cache before a truly cold read: the whole page cache (`sync`, then
 * `echo 3 > /proc/sys/vm/drop_caches`) where this process may (root), else `dir`'s files alone (`evictFromPageCache`).
 * Returns which was done.
 */
export function dropPageCache(dir: string): 'drop_caches' | 'fadvise' {
  try {
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3');
    return 'drop_caches';
  } catch {
    evictFromPageCache(dir);
    return 'fadvise';
  }
}
