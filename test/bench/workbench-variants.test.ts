import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baselineStore } from '../../bench/workbench/baseline-store.js';
import { runGate } from '../../bench/workbench/gate.js';
import { loadModule } from '../../bench/workbench/modules.js';
import { WorkbenchRefusal } from '../../bench/workbench/refusal.js';
import { buildRevision, resolveRevision } from '../../bench/workbench/revision.js';
import { buildVariant } from '../../bench/workbench/variant-build.js';
import { readVariant } from '../../bench/workbench/variant-spec.js';
import { PROJECT_ROOT } from '../../src/util/paths.js';

const ASSEMBLY = join(PROJECT_ROOT, 'assembly');
const TREE = { root: PROJECT_ROOT, label: 'working tree' };
const dir = mkdtempSync(join(tmpdir(), 'workbench-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a variant folder under the temporary variants folder. */
function variant(name: string, manifest: unknown, files: Record<string, string> = {}): void {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, 'variant.json'), typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(dir, name, rel), text);
}

/** The refusal message of `fn`. */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(WorkbenchRefusal);
    return (err as Error).message;
  }
  throw new Error('not refused');
}

describe('workbench variants', () => {
  it('reads the shipped variants', () => {
    const release = readVariant(join(PROJECT_ROOT, 'bench', 'variants'), 'release', ASSEMBLY);
    expect(release.asc).toEqual([]);
    expect(release.kernels).toContain('precompute');
    expect(release.reference).toBe(false);
    const scalar = readVariant(join(PROJECT_ROOT, 'bench', 'variants'), 'scalar', ASSEMBLY);
    expect(scalar.asc).toEqual(['--disable', 'simd']);
    expect(scalar.reference).toBe(true);
  });

  it('keeps the slower variant of the power study in step with assembly/: the release source plus one redundant pass', () => {
    const variants = join(PROJECT_ROOT, 'bench', 'variants');
    const slower = readVariant(variants, 'slower-5pct', ASSEMBLY);
    expect(slower.reference).toBe(true);
    expect(Object.keys(slower.replacements)).toEqual(['_accumulate.ts']);
    const text = readFileSync(slower.replacements['_accumulate.ts']!, 'utf8');
    const pass = /\n {2}\/\/ REDUNDANT PASS[^]*?\n {2}}\n/.exec(text);
    expect(pass).not.toBeNull();
    expect(text.replace(pass![0], '\n')).toBe(readFileSync(join(ASSEMBLY, '_accumulate.ts'), 'utf8'));
  });

  it('refuses bad folders with a one-line reason', () => {
    variant('unknown-key', { kernel: 'stats', asc: [], speed: 'fast' });
    variant('bad-kernel', { kernel: 'fft' });
    variant('bad-json', '{ kernel: ');
    variant('bad-reference', { kernel: 'stats', reference: 'yes' });
    variant('orphan', { kernel: 'decode' }, { '_nothing.ts': 'export const x = 1;' });
    expect(refusal(() => readVariant(dir, 'unknown-key', ASSEMBLY))).toMatch(/unknown key "speed"/);
    expect(refusal(() => readVariant(dir, 'bad-kernel', ASSEMBLY))).toMatch(/"kernel" must be one of/);
    expect(refusal(() => readVariant(dir, 'bad-json', ASSEMBLY))).toMatch(/not valid JSON/);
    expect(refusal(() => readVariant(dir, 'bad-reference', ASSEMBLY))).toMatch(/"reference" must be true or false/);
    expect(refusal(() => readVariant(dir, 'orphan', ASSEMBLY))).toMatch(/_nothing\.ts replaces nothing/);
    expect(refusal(() => readVariant(dir, 'missing', ASSEMBLY))).toMatch(/no .*variant\.json/);
    expect(refusal(() => readVariant(dir, '../etc', ASSEMBLY))).toMatch(/not a folder name/);
    for (const m of [/unknown key/, /replaces nothing/]) expect(m.source.includes('\n')).toBe(false);
  });

  it('refuses a flag asc rejects and leaves nothing in the cache', () => {
    variant('bad-flag', { kernel: 'decode', asc: ['--no-such-flag'] });
    // A cache of its own: other test files build variants into the shared one at the same time.
    const cache = join(dir, 'cache');
    const spec = readVariant(dir, 'bad-flag', ASSEMBLY);
    expect(refusal(() => buildVariant(spec, 'decode', TREE, cache))).toMatch(/asc rejects a flag: .*--no-such-flag/);
    expect(readdirSync(cache)).toEqual([]);
  });

  it('refuses a variant with a wrong answer before timing, naming the first difference', () => {
    // The unshuffle's scalar tail is off by one in its last element: only a cell count not a multiple of 16 shows it.
    const source = readFileSync(join(ASSEMBLY, '_unshuffle.ts'), 'utf8');
    const tail = 'store<u16>(dst + (<usize>i << 1), <u16>load<u8>(lo + <usize>i) | (<u16>load<u8>(hi + <usize>i) << 8));';
    expect(source).toContain(tail);
    const wrong = source.replace(tail, tail.replace('<u16>load<u8>(lo + <usize>i) |', '<u16>(load<u8>(lo + <usize>i) + (i == n - 1 ? 1 : 0)) |'));
    variant('wrong-tail', { kernel: 'decode', description: 'deliberately wrong' }, { '_unshuffle.ts': wrong });
    const release = readVariant(join(PROJECT_ROOT, 'bench', 'variants'), 'release', ASSEMBLY);
    const spec = readVariant(dir, 'wrong-tail', ASSEMBLY);
    const ref = loadModule('release', 'decode', buildVariant(release, 'decode', TREE).wasmPath);
    const bad = loadModule('wrong-tail', 'decode', buildVariant(spec, 'decode', TREE).wasmPath);
    expect(runGate('decode', ref, ref)).toBe(6);
    const message = refusal(() => runGate('decode', ref, bad));
    expect(message).toMatch(/case "61 cells" differs from release at shuffle no2 \(-?\d+ vs -?\d+\), cell 60, hour 8759/);
    // The same module as a precompute variant: chunks written into the views never interleave anything, so only the
    // gate's second load, from stored frames (byte planes interleaved block by block), can show the wrong tail.
    const refP = loadModule('release', 'precompute', buildVariant(release, 'decode', TREE).wasmPath);
    const badP = loadModule('wrong-tail', 'precompute', buildVariant(spec, 'decode', TREE).wasmPath);
    expect(runGate('precompute', refP, refP)).toBe(6);
    expect(refusal(() => runGate('precompute', refP, badP))).toMatch(/differs from release at figure .*, chunk from frames/);
  });

  it('refuses a module whose layout differs from the host', () => {
    expect(() => loadModule('odd', 'stats', join(PROJECT_ROOT, 'build', 'cf-decode.wasm'))).toThrow(/lacks the exports? .*layout_signature/);
  });

  it('refuses a revision that does not exist or predates the workbench, and builds one that has it', () => {
    expect(refusal(() => resolveRevision('no-such-revision-27'))).toMatch(/does not exist/);
    expect(resolveRevision('HEAD')).toMatch(/^[0-9a-f]{40}$/);
    expect(refusal(() => buildRevision('243fd58', 'decode'))).toMatch(/predates the workbench/);
    const temps = (): string[] => readdirSync(tmpdir()).filter((f) => f.startsWith('workbench-rev-'));
    const before = temps();
    const head = buildRevision('HEAD', 'decode');
    expect(head.spec.name).toMatch(/^HEAD@[0-9a-f]{8}$/);
    expect(existsSync(head.wasmPath)).toBe(true);
    expect(temps()).toEqual(before);
  });
});

describe('baseline store', () => {
  it('saves atomically, never overwrites without force, and loads back', () => {
    const store = baselineStore(join(dir, 'baselines'));
    const run = { name: 'before', kernel: 'stats', baseline: 'release', rates: { release: [1, 2] }, seed: 1, context: {} };
    store.save(run);
    expect(refusal(() => store.save({ ...run, rates: { release: [9] } }))).toMatch(/exists .*--force/);
    expect(store.load('before').rates.release).toEqual([1, 2]);
    store.save({ ...run, rates: { release: [9] } }, true);
    expect(store.load('before').rates.release).toEqual([9]);
    expect(readdirSync(join(dir, 'baselines'))).toEqual(['before.json']);
    expect(refusal(() => store.load('after'))).toMatch(/No baseline after \(saved: before\)/);
    writeFileSync(join(dir, 'baselines', 'broken.json'), '{');
    expect(refusal(() => store.load('broken'))).toMatch(/unreadable/);
  });
});
