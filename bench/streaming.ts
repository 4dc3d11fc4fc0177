/**
 * `npm run bench -- streaming`: peak memory of the stages that grow with the area — the COG writer, the precompute's
 * output (the grid group), the atlas export (every figure's COG and the annual PMTiles archive), the annual map tiles
 * as the server draws them (by windows from a bounded band cache, and from whole grids as before) and generation (the
 * bench block at 4 and 16 times its area, a week of hours: bench/streaming-area.ts) — each step in a fresh child
 * process (bench/streaming-child.ts) so its peak resident memory is its own. Synthetic sizes come in pairs of one
 * width and four times the height: streaming holds a band of rows, so the peak should stay flat as the height (and
 * the area) grows fourfold, and only a width change should move it; generation's windows bound it in both directions.
 * Target: the peak at 4× the area within 1.1× of the peak at 1× (and far under one whole grid). A process's peak RSS varies from
 * run to run by tens of megabytes (when V8 collects, how much the allocator keeps), so each step runs REPEATS times and
 * the highest peak counts; children run with MALLOC_ARENA_MAX=2, so the file-system threads' malloc arenas do not add
 * their own noise. One more run of each step collects garbage every 50 ms (--expose-gc) and reports the highest live
 * memory (JS heap and array buffers): what the step holds, the figure the bound is about.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PRECOMPUTE_GRIDS } from '../src/stats/atlas-figures.js';
import { PROJECT_ROOT } from '../src/util/paths.js';
import { benchOptions, type BenchResult } from './registry.js';
import { featureBytesPerCell } from './streaming-area.js';

const execFileAsync = promisify(execFile);

/** What one child reports. */
interface StepResult {
  readonly step: string;
  readonly width: number;
  readonly height: number;
  readonly wall_s: number;
  readonly cpu_s: number;
  readonly rss_before_mb: number;
  readonly peak_rss_mb: number;
  readonly peak_live_mb?: number | undefined;
  readonly bytes: number;
}

/** Pairs of sizes (width, height) per step: the same width, four times the area. */
const COG_SIZES: readonly [number, number][] = [[8000, 2000], [8000, 8000]];
const EXPORT_SIZES: readonly [number, number][] = [[1100, 1100], [1100, 4400]];
/** Generation: the bench block at K times its area (K, 4 K), a week of hours. */
const GENERATE_STEPS: readonly [number, number][] = [[4, 168], [16, 168]];
/** Steps compared at their two sizes, in table order. */
const STEPS = ['cog', 'group', 'export', 'annual', 'annual-whole', 'generate'] as const;
const TARGET_RATIO = 1.1;
const REPEATS = 2;

/** One run of a step in a fresh child (collecting garbage every 50 ms with `gc`). */
async function runChild(step: string, width: number, height: number, dir: string, gc: boolean): Promise<StepResult> {
  const script = join(PROJECT_ROOT, 'dist', 'bench', 'streaming-child.js');
  const { stdout } = await execFileAsync(process.execPath, [...(gc ? ['--expose-gc'] : []), script, step, String(width), String(height), dir], {
    maxBuffer: 1 << 20, env: { ...process.env, MALLOC_ARENA_MAX: '2' },
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as StepResult;
}

/**
 * One run of a step as `runChild`; generation writes into a fresh directory each time, so that every run is a first
 * generation (replacing the dataset a run before wrote deletes its files, which is the store's cost, not generation's:
 * docs/scaling.md, item 5).
 */
async function runOnce(step: string, width: number, height: number, dir: string, gc: boolean): Promise<StepResult> {
  if (step !== 'generate') return runChild(step, width, height, dir, gc);
  const fresh = await mkdtemp(join(dir, 'run-'));
  try {
    return await runChild(step, width, height, fresh, gc);
  } finally {
    await rm(fresh, { recursive: true, force: true });
  }
}

/** Runs a step REPEATS times, each in a fresh child: the run with the highest peak, and the live peak of one more. */
async function child(step: string, width: number, height: number, dir: string): Promise<StepResult> {
  let worst: StepResult | undefined;
  for (let i = 0; i < REPEATS; i++) {
    const result = await runOnce(step, width, height, dir, false);
    if (worst === undefined || result.peak_rss_mb > worst.peak_rss_mb) worst = result;
  }
  const live = await runOnce(step, width, height, dir, true);
  return { ...worst!, peak_live_mb: live.peak_live_mb };
}

/** Runs the steps in `only` (every step when undefined). */
async function measureAll(only: ReadonlySet<string> | undefined): Promise<StepResult[]> {
  const results: StepResult[] = [];
  const wanted = (step: string) => only === undefined || only.has(step);
  for (const [w, h] of wanted('cog') ? COG_SIZES : []) {
    const dir = await mkdtemp(join(tmpdir(), 'bench-streaming-'));
    try {
      results.push(await child('cog', w, h, dir));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const fromGroup = ['group', 'export', 'annual', 'annual-whole'].filter(wanted);
  for (const [w, h] of fromGroup.length > 0 ? EXPORT_SIZES : []) {
    const dir = await mkdtemp(join(tmpdir(), 'bench-streaming-'));
    try {
      // The later steps read the group: it is written whenever one of them runs.
      const group = await child('group', w, h, dir);
      if (wanted('group')) results.push(group);
      for (const step of fromGroup.filter((s) => s !== 'group')) results.push(await child(step, w, h, dir));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  for (const [k, hours] of wanted('generate') ? GENERATE_STEPS : []) {
    const dir = await mkdtemp(join(tmpdir(), 'bench-streaming-'));
    try {
      results.push(await child('generate', k, hours, dir));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return results;
}

/** `--steps a,b`: only those steps (of `STEPS`); default every one. */
export async function run(args: readonly string[] = []): Promise<BenchResult> {
  const options = benchOptions(args);
  const only = options?.steps === undefined ? undefined : new Set(options.steps.split(','));
  const unknown = [...(only ?? [])].filter((s) => !(STEPS as readonly string[]).includes(s));
  if (options === undefined || unknown.length > 0) throw new Error(`streaming: --steps takes a comma-separated list of ${STEPS.join(', ')}.`);
  const results = await measureAll(only);
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
  /**
   * What holding the step's grids whole would take: one float32 grid for a COG, every cell's features for generation,
   * every precomputed grid otherwise.
   */
  const perCell = featureBytesPerCell();
  const whole = (r: StepResult) => mb(r.width * r.height * (r.step === 'cog' ? 4 : r.step === 'generate' ? perCell : 4 * PRECOMPUTE_GRIDS.length));
  const ratios: Record<string, number> = {};
  const liveRatios: Record<string, number> = {};
  for (const step of STEPS) {
    const [small, large] = results.filter((r) => r.step === step);
    if (small === undefined || large === undefined) continue;
    ratios[step] = Math.round((large!.peak_rss_mb / small!.peak_rss_mb) * 100) / 100;
    liveRatios[step] = Math.round((large!.peak_live_mb! / small!.peak_live_mb!) * 100) / 100;
  }
  // Drawing from whole grids is the comparison, not a target.
  const targets = (of: Record<string, number>) => Object.entries(of).filter(([step]) => step !== 'annual-whole').map(([, r]) => r);
  const shown = (of: Record<string, number>, step: string): string => (step in of ? String(of[step]) : 'not run');
  const met = targets(ratios).every((r) => r <= TARGET_RATIO);
  const liveMet = targets(liveRatios).every((r) => r <= TARGET_RATIO);
  return {
    // A run of some steps is written beside the full run's result, not over it.
    name: only === undefined ? 'streaming' : `streaming-${[...only].join('-')}`,
    title: 'Peak memory against the area: COG writer, precompute output, atlas export, annual map tiles (synthetic 1 m grids) and generation',
    columns: ['step', 'cells', 'wall s', 'CPU s', 'RSS before MB', 'peak RSS MB', 'peak live MB', 'whole grids MB', 'written MB'],
    rows: results.map((r) => ({
      step: `${r.step} ${r.width} × ${r.height}`, cells: r.width * r.height, 'wall s': r.wall_s, 'CPU s': r.cpu_s,
      'RSS before MB': r.rss_before_mb, 'peak RSS MB': r.peak_rss_mb, 'peak live MB': r.peak_live_mb ?? '',
      'whole grids MB': whole(r), 'written MB': mb(r.bytes),
    })),
    notes: [
      `Peak RSS at 4× the area over the peak at 1× (same width): COG ${shown(ratios, 'cog')}, precompute output ${shown(ratios, 'group')}, export ${shown(ratios, 'export')}, ` +
        `annual tiles ${shown(ratios, 'annual')} (from whole grids: ${shown(ratios, 'annual-whole')}), generation (bench ×16 over ×4) ${shown(ratios, 'generate')}; ` +
        `target ≤ ${TARGET_RATIO} (${met ? 'met' : 'NOT met'}).`,
      `Peak live memory (after garbage collection) at 4× over 1×: COG ${shown(liveRatios, 'cog')}, precompute output ${shown(liveRatios, 'group')}, ` +
        `export ${shown(liveRatios, 'export')}, annual tiles ${shown(liveRatios, 'annual')} (from whole grids: ${shown(liveRatios, 'annual-whole')}), ` +
        `generation ${shown(liveRatios, 'generate')}; target ≤ ${TARGET_RATIO} (${liveMet ? 'met' : 'NOT met'}).`,
      '"whole grids MB": what the step would hold if it kept its grids whole (one float32 grid for a COG, the 31 precomputed grids ' +
        `for the precompute's output, the export and the annual tiles, every cell's features at ${perCell} bytes a cell for generation).`,
      'Generation: the bench block at 1 m, K times its area, the first 168 hours of the year, no stored aggregates, 2 generator threads ' +
        '(RSS counts the threads); "written MB" is what it stored. Annual tiles: every tile of the zooms with at most ' +
        '24 a layer, 24 spread over the extent at the others, of the three annual layers, drawn in the measuring process.',
      `Each step ran ${REPEATS} times in fresh processes; the highest peak is shown.`,
    ],
    figures: {
      steps: results,
      peak_ratio_4x_area: ratios,
      live_ratio_4x_area: liveRatios,
      target_ratio: TARGET_RATIO,
      target_met: met,
      live_target_met: liveMet,
    },
  };
}
