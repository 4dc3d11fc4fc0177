/**
 * `npm run bench -- streaming`: peak memory of the writers that grow with the area — the COG writer, the precompute's
 * output (the grid group) and the atlas export (every figure's COG and the annual PMTiles archive) — on synthetic grids
 * generated band by band, each step in a fresh child process (bench/streaming-child.ts) so its peak resident memory
 * is its own. Sizes come in pairs of one width and four times the height: streaming holds a band of rows, so the peak
 * should stay flat as the height (and the area) grows fourfold, and only a width change should move it. Target: the
 * peak at 4× the area within 1.1× of the peak at 1× (and far under one whole grid). A process's peak RSS varies from
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
import { PRECOMPUTE_GRIDS } from '../src/compute/precompute-publish.js';
import { PROJECT_ROOT } from '../src/util/paths.js';
import type { BenchResult } from './registry.js';

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

/** Runs a step REPEATS times, each in a fresh child: the run with the highest peak, and the live peak of one more. */
async function child(step: string, width: number, height: number, dir: string): Promise<StepResult> {
  let worst: StepResult | undefined;
  for (let i = 0; i < REPEATS; i++) {
    const result = await runChild(step, width, height, dir, false);
    if (worst === undefined || result.peak_rss_mb > worst.peak_rss_mb) worst = result;
  }
  const live = await runChild(step, width, height, dir, true);
  return { ...worst!, peak_live_mb: live.peak_live_mb };
}

async function measureAll(): Promise<StepResult[]> {
  const results: StepResult[] = [];
  for (const [w, h] of COG_SIZES) {
    const dir = await mkdtemp(join(tmpdir(), 'bench-streaming-'));
    try {
      results.push(await child('cog', w, h, dir));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  for (const [w, h] of EXPORT_SIZES) {
    const dir = await mkdtemp(join(tmpdir(), 'bench-streaming-'));
    try {
      results.push(await child('group', w, h, dir));
      results.push(await child('export', w, h, dir));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return results;
}

export async function run(): Promise<BenchResult> {
  const results = await measureAll();
  const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
  /** What holding the step's grids whole would take: one float32 grid for a COG, every precomputed grid otherwise. */
  const whole = (r: StepResult) => mb(r.width * r.height * 4 * (r.step === 'cog' ? 1 : PRECOMPUTE_GRIDS.length));
  const ratios: Record<string, number> = {};
  const liveRatios: Record<string, number> = {};
  for (const step of ['cog', 'group', 'export']) {
    const [small, large] = results.filter((r) => r.step === step);
    ratios[step] = Math.round((large!.peak_rss_mb / small!.peak_rss_mb) * 100) / 100;
    liveRatios[step] = Math.round((large!.peak_live_mb! / small!.peak_live_mb!) * 100) / 100;
  }
  const met = Object.values(ratios).every((r) => r <= TARGET_RATIO);
  const liveMet = Object.values(liveRatios).every((r) => r <= TARGET_RATIO);
  return {
    name: 'streaming',
    title: 'Peak memory of the COG writer, the precompute output and the atlas export against the area (synthetic 1 m grids)',
    columns: ['step', 'cells', 'wall s', 'CPU s', 'RSS before MB', 'peak RSS MB', 'peak live MB', 'whole grids MB', 'written MB'],
    rows: results.map((r) => ({
      step: `${r.step} ${r.width} × ${r.height}`, cells: r.width * r.height, 'wall s': r.wall_s, 'CPU s': r.cpu_s,
      'RSS before MB': r.rss_before_mb, 'peak RSS MB': r.peak_rss_mb, 'peak live MB': r.peak_live_mb ?? '',
      'whole grids MB': whole(r), 'written MB': mb(r.bytes),
    })),
    notes: [
      `Peak RSS at 4× the area over the peak at 1× (same width): COG ${ratios.cog}, precompute output ${ratios.group}, export ${ratios.export}; ` +
        `target ≤ ${TARGET_RATIO} (${met ? 'met' : 'NOT met'}).`,
      `Peak live memory (after garbage collection) at 4× over 1×: COG ${liveRatios.cog}, precompute output ${liveRatios.group}, ` +
        `export ${liveRatios.export}; target ≤ ${TARGET_RATIO} (${liveMet ? 'met' : 'NOT met'}).`,
      '"whole grids MB": what the step would hold if it kept its grids whole (one float32 grid for a COG, the 31 precomputed grids otherwise).',
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
