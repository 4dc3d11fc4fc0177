/**
 * removeTree: a whole tree goes (nested directories, more files in one directory than unlinks run at once, empty
 * directories), a missing path is no error, a file is removed as a file, two removals of one tree may race, and an
 * error other than "gone" is thrown.
 */
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTree } from '../../src/store/remove-tree.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-remove-tree-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const exists = (path: string) => stat(path).then(() => true, () => false);

describe('removeTree', () => {
  it('removes a tree of nested directories, wide directories and empty ones, and nothing beside it', async () => {
    const tree = join(root, 'store');
    for (let a = 0; a < 3; a++) {
      for (let b = 0; b < 4; b++) {
        const dir = join(tree, `f${a}`, '0', String(b));
        await mkdir(dir, { recursive: true });
        for (let c = 0; c < 40; c++) await writeFile(join(dir, String(c)), `${a}.${b}.${c}`);
      }
    }
    await mkdir(join(tree, 'empty', 'deeper'), { recursive: true });
    await writeFile(join(tree, '.zmetadata'), '{}');
    await writeFile(join(root, 'beside'), 'kept');
    await removeTree(tree);
    expect(await exists(tree)).toBe(false);
    expect(await readdir(root)).toEqual(['beside']);
  });

  it('takes a missing path as already removed, and a file as a file', async () => {
    await expect(removeTree(join(root, 'never-there'))).resolves.toBeUndefined();
    const file = join(root, 'a-file');
    await writeFile(file, 'x');
    await removeTree(file);
    expect(await exists(file)).toBe(false);
  });

  it('lets two removals of one tree race: what the other removed first counts as removed', async () => {
    const tree = join(root, 'raced');
    for (let d = 0; d < 5; d++) {
      await mkdir(join(tree, String(d)), { recursive: true });
      for (let f = 0; f < 50; f++) await writeFile(join(tree, String(d), String(f)), 'x');
    }
    await Promise.all([removeTree(tree), removeTree(tree)]);
    expect(await exists(tree)).toBe(false);
  });

  it('throws what is not "gone": a path the system refuses', async () => {
    await expect(removeTree(join(root, 'bad\u0000name'))).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_VALUE' });
  });
});
