import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { beginAtomicDir, swapDirectory, withAtomicDir, writeFileAtomic } from '../../src/store/atomic-dir.js';
import { tempDir } from './helpers.js';

describe('atomic directories', () => {
  let root: { dir: string; cleanup: () => Promise<void> };
  beforeEach(async () => { root = await tempDir('atomic'); });
  afterEach(() => root.cleanup());

  it('builds in a hidden sibling and renames into place on success', async () => {
    const target = join(root.dir, 'out');
    const result = await withAtomicDir(target, async (tmp) => {
      expect(tmp.startsWith(join(root.dir, '.out.tmp-'))).toBe(true);
      await writeFile(join(tmp, 'a.txt'), 'A');
      expect(await readdir(root.dir)).toHaveLength(1);
      return 42;
    });
    expect(result).toBe(42);
    expect(await readdir(root.dir)).toEqual(['out']);
    expect(await readFile(join(target, 'a.txt'), 'utf8')).toBe('A');
  });

  it('removes the temporary directory on failure and leaves an existing target intact', async () => {
    const target = join(root.dir, 'out');
    await mkdir(target);
    await writeFile(join(target, 'old.txt'), 'old');
    const failing = withAtomicDir(target, async (tmp) => {
      await writeFile(join(tmp, 'new.txt'), 'new');
      throw new Error('half way');
    }, { overwrite: true });
    await expect(failing).rejects.toThrow('half way');
    expect(await readdir(root.dir)).toEqual(['out']);
    expect(await readdir(target)).toEqual(['old.txt']);
  });

  it('replaces an existing target only with overwrite', async () => {
    const target = join(root.dir, 'out');
    await mkdir(target);
    await expect(beginAtomicDir(target)).rejects.toThrow(/already exists/);
    const dir = await beginAtomicDir(target, { overwrite: true });
    await writeFile(join(dir.tmpDir, 'new.txt'), 'new');
    await dir.commit();
    await dir.abort();
    expect(await readdir(target)).toEqual(['new.txt']);
    expect(await readdir(root.dir)).toEqual(['out']);
    await expect(dir.commit()).rejects.toThrow(/already committed/);
  });

  it('swaps directories and writes files atomically', async () => {
    const a = join(root.dir, 'a');
    const b = join(root.dir, 'b');
    await mkdir(a);
    await mkdir(b);
    await writeFile(join(b, 'x'), 'from b');
    await swapDirectory(b, a);
    expect(await readdir(root.dir)).toEqual(['a']);
    expect(await readFile(join(a, 'x'), 'utf8')).toBe('from b');
    await writeFileAtomic(join(a, 'x'), 'rewritten');
    expect(await readFile(join(a, 'x'), 'utf8')).toBe('rewritten');
    expect(await readdir(a)).toEqual(['x']);
  });
});
