/**
 * A generation killed mid-way (SIGKILL, as a crash or kill -9 would) leaves no half store: the dataset directory does
 * not exist until it is complete, and only the hidden temporary sibling the killed run was writing remains. The next
 * run says it redoes the dataset and removes that leftover before anything else (here it then stops at the disk-room
 * check, a fake full disk, so the test does not wait for a whole generation; bench/scale-data.ts shows the ladder's
 * full redo).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { generatePreset } from '../../src/model/generate.js';
import { SVC } from './support/run-svc.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-generate-killed-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const leftovers = async (dir: string) => (await readdir(dir).catch(() => [] as string[])).filter((n) => n.startsWith('.brussels_extended.'));

/** Starts `svc data generate --fixture --scale 1` and kills it with SIGKILL once it has written hourly chunks. */
async function killedMidway(outDir: string): Promise<number> {
  const child = spawn(process.execPath, [SVC, 'data', 'generate', '--fixture', '--scale', '1', '--threads', '1', '--out', outDir], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  for (;;) {
    const [tmp] = await leftovers(outDir);
    const rows = tmp === undefined ? [] : await readdir(join(outDir, tmp, 'no2', '0')).catch(() => [] as string[]);
    if (rows.length > 0) break;
    if (child.exitCode !== null) throw new Error('The generation finished before it could be killed.');
    await new Promise((r) => setTimeout(r, 20));
  }
  child.kill('SIGKILL');
  await exited;
  return child.pid!;
}

describe('svc data generate killed mid-way', () => {
  it('leaves no half store, and the next run says it redoes it and removes the leftover first', async () => {
    const outDir = join(root, 'fixture-x1');
    const pid = await killedMidway(outDir);
    expect(await readdir(outDir)).not.toContain('brussels_extended');
    expect(await leftovers(outDir)).toHaveLength(1);

    const notices: string[] = [];
    const rerun = generatePreset({
      preset: 'fixture', scale: 1, outDir, seed: 1, threads: 1, progress: false,
      notice: (line) => notices.push(line), freeBytes: async () => 0,
    });
    await expect(rerun).rejects.toBeInstanceOf(ValidationError);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(new RegExp(`^redoing brussels_extended: an earlier run \\(process ${pid}\\) was interrupted; removed its partial `));
    expect(await readdir(outDir)).toEqual([]);
  }, 120_000);
});
