/**
 * An interrupted run leaves saved baselines intact: a child process replaces a saved baseline over and over (each
 * save large enough to take a while to write) and is stopped by SIGINT mid-way; the baseline must still load and hold
 * one of the two complete versions. And a real workbench run asked to replace a saved baseline (`--save NAME
 * --force`), stopped by SIGINT during its rounds, leaves that baseline byte for byte as it was. Uses the built code
 * (dist/, `npm run build`), as a run of `npm run bench` does.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { baselineStore } from '../../bench/workbench/baseline-store.js';
import { PROJECT_ROOT } from '../../src/util/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'workbench-interrupt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const STORE = join(PROJECT_ROOT, 'dist', 'bench', 'workbench', 'baseline-store.js');
const N = 300_000;

/** The child: saves version 1, says so, then saves versions 2 and 1 alternately with force until stopped. */
const CHILD = `
const { baselineStore } = await import(${JSON.stringify(pathToFileURL(STORE).href)});
const store = baselineStore(process.argv[1]);
const run = (v) => ({ name: 'keep', kernel: 'stats', baseline: 'release', rates: { release: new Array(${N}).fill(v) }, seed: 1, context: {} });
store.save(run(1));
for (let i = 0; ; i++) { store.save(run(2 - (i % 2)), true); if (i === 2) console.log('saving'); }
`;

describe('baseline store under SIGINT', () => {
  it.skipIf(!existsSync(STORE))('keeps a complete saved baseline when the saving process is interrupted', async () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGINT');
    expect(await exited).toBe('SIGINT');
    const saved = baselineStore(dir).load('keep');
    expect(saved.rates.release).toHaveLength(N);
    const v = saved.rates.release![0];
    expect([1, 2]).toContain(v);
    expect(saved.rates.release!.every((x) => x === v)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith('.json'))).toEqual(['keep.json']);
  });
});

describe('workbench run under SIGINT', () => {
  const RUN = join(PROJECT_ROOT, 'dist', 'bench', 'run.js');
  const name = `test-interrupt-${process.pid}`;
  const store = baselineStore(join(PROJECT_ROOT, 'bench', 'baselines'));
  const file = join(PROJECT_ROOT, 'bench', 'baselines', `${name}.json`);
  afterAll(() => rmSync(file, { force: true }));

  it.skipIf(!existsSync(RUN))('leaves the baseline it was to replace as it was', async () => {
    store.save({ name, kernel: 'decode', baseline: 'release', rates: { release: [1, 2, 3] }, seed: 1, context: {} });
    const before = readFileSync(file);
    // A 60 s budget: the run is still in its rounds (or building, or gating) when stopped, whatever the machine.
    const child = spawn(process.execPath, [RUN, 'kernels', '--kernel', 'decode', '--save', name, '--force', '--budget', '60'],
      { cwd: PROJECT_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    await new Promise((resolve) => setTimeout(resolve, 3000));
    child.kill('SIGINT');
    expect(await exited).toBe('SIGINT');
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(readdirSync(join(PROJECT_ROOT, 'bench', 'baselines')).filter((f) => f.startsWith(name))).toEqual([`${name}.json`]);
  }, 30_000);
});
