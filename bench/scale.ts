/**
 * `npm run bench -- scale [--steps demo:1,demo:4,...] [--data DIR] [--threads N]`: the scale ladder. For each step
 * (a preset's street-level model over K times its area at the same resolution, `svc data generate --scale K`; default
 * demo and bench at K = 1, 4, 16), it makes or reuses the data (bench/scale-data.ts, under data/scale/<preset>-x<K>/)
 * and measures, each stage in a process of its own so its peak memory is its own (bench/scale-stages.ts): generation,
 * aggregation, store open (time; memory per process and per compute thread), precompute (wall, CPU, M cell-hours per
 * CPU-second), atlas export with its PMTiles archive (time, peak memory, file sizes), cold annual tiles at every zoom
 * through the real service (p50, p99, largest; bench/atlas.ts), and `svc serve` from start to its first answer and its
 * memory after a fixed query mix; once every step exists, the truly cold point and 50 m radius queries (page cache
 * dropped) in passes alternating over each preset's steps (`QUERY_PASSES`). Then the
 * chunk index's open cost at the largest and the smallest store (bench/scale-index.ts). It prints each stage's cost
 * per cell and peak memory against area, writes bench/results/scale.json and judges the targets (bench/scale-targets.ts);
 * a missed target fails the run (exit code 1). It never runs in `npm test`.
 */
import { measureChunkIndex } from './chunk-index.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { lambert72ToWgs84 } from '../src/geo/crs.js';
import { roundCoord } from '../src/geo/round.js';
import { presetPlans } from '../src/model/presets.js';
import { SCALED_DATASET, type ScalablePreset } from '../src/model/scaled-plans.js';
import { PROJECT_ROOT } from '../src/util/paths.js';
import { annualTiles } from './atlas.js';
import { startChild } from './http-load.js';
import { filesUnder } from './page-cache.js';
import type { BenchResult } from './registry.js';
import { ensureStepData } from './scale-data.js';
import { residentMb } from './scale-memory.js';
import { runStage, type StageResult } from './scale-stage.js';
import { baseCentre, DEFAULT_STEPS, parseSteps, stepCells, stepDir, stepName, type LadderStep } from './scale-steps.js';
import { COST_STAGES, evaluateTargets, slopes, type StepFigures, type TargetCheck } from './scale-targets.js';
import { median, percentile } from './timing.js';

const SEED = 1;
/** Annual tiles asked per layer and zoom (evenly spread over the zoom's tiles; every tile where there are fewer). */
const TILES_PER_ZOOM = 40;
/** Cold passes over those tiles: a tile's latency is the median of its passes (bench/atlas.ts). */
const TILE_REPEATS = 3;
/**
 * The service's cache of decoded precompute chunks while tiles are timed, MiB: none, so that every tile decodes the
 * chunks it reads at every step and the steps compare a tile's own cost (the default share holds the smallest steps'
 * chunks whole and the largest's only in part; even 1 MiB held most of the bench block's at 1×, whose consecutive
 * tiles share chunks, where the sampled tiles of 16× lie apart).
 */
const TILE_ANNUAL_CACHE_MB = 0;
/**
 * Cold requests of the deepest zoom's interior tiles per step (at least): the tiles whose latency the target
 * compares, like for like (a full tile holds the same blocks and features at every extent, where the mix of all
 * sampled tiles changes with it: most of the bench block's tiles at 1× are edge tiles, half empty), and enough of
 * them for a 99th percentile.
 */
const TILE_DEEP_SAMPLES = 300;
/** How long the service may take to finish its first catalog's background work before tiles are asked. */
const QUIET_WITHIN_S = 900;

/**
 * Passes of the truly cold queries, each over every step of a preset, in alternating order (1×, 4×, 16×, then 16×, 4×,
 * 1×, …); a step's figure is the median of its passes. Cold reads wait on the disk, whose latency follows the
 * machine's other load: timed step after step, minutes apart (their other stages between), the same code measured
 * 1.17× from 1× to 16× in two runs and 0.93× in another, where alternating the steps by hand showed none (demo: 32.7,
 * 32.6, 34.4 ms at 16× against 40.0, 32.1, 35.2 at 1×). Alternating compares the steps under the same load.
 */
const QUERY_PASSES = 3;
/** The fixed query mix after which the serving process's memory is read: a lattice of locations, radii cycling. */
const MIX = { cols: 8, rows: 5, radii: [undefined, 25, 50] as const };

const r = (v: number, digits = 2): number => Number(v.toFixed(digits));

/** Bytes of every file under `dir`. */
function storedBytes(dir: string): number {
  return filesUnder(dir).reduce((n, f) => n + statSync(f).size, 0);
}

/** A stage's cost per million grid cells and its peak memory, as `S_cpu_s_per_mcell` and `S_peak_rss_mb`. */
function stageFigures(stage: string, result: StageResult | undefined, cells: number, cpuS = result?.cpu_s): Record<string, number | null> {
  if (result === undefined || cpuS === undefined) return { [`${stage}_cpu_s_per_mcell`]: null, [`${stage}_peak_rss_mb`]: null, [`${stage}_wall_s`]: null };
  return {
    [`${stage}_cpu_s_per_mcell`]: r(cpuS / (cells / 1e6), 3),
    [`${stage}_peak_rss_mb`]: r(result.peak_rss_mb, 1),
    [`${stage}_wall_s`]: r(result.wall_s, 3),
    [`${stage}_cpu_s`]: r(cpuS, 3),
  };
}

/** `svc serve` over the step's data: seconds from start to the first statistics answer; MiB resident after the mix. */
async function serveFigures(preset: ScalablePreset, dataDir: string): Promise<{ serve_start_s: number; serve_rss_mb: number }> {
  const tmp = await mkdtemp(join(dataDir, '.serve-'));
  const t0 = performance.now();
  const service = await startChild(['service', dataDir, join(tmp, 'svc.sqlite')]);
  try {
    const auth = { authorization: `Bearer ${await service.newKey()}` };
    const ask = async (lat: number, lon: number, radius?: number) => {
      const url = `${service.url}/v1/historical/stats?lat=${lat}&lon=${lon}${radius === undefined ? '' : `&radius=${radius}`}`;
      const res = await fetch(url, { headers: auth });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${body.slice(0, 300)}`);
    };
    const centre = baseCentre(preset);
    await ask(centre.lat, centre.lon);
    const start = (performance.now() - t0) / 1000;
    const { rect } = presetPlans(preset).find((p) => p.model === 'street')!;
    let k = 0;
    for (let i = 0; i < MIX.cols; i++) {
      for (let j = 0; j < MIX.rows; j++) {
        const x = rect.xmin + ((i + 0.5) / MIX.cols) * (rect.xmax - rect.xmin);
        const y = rect.ymin + ((j + 0.5) / MIX.rows) * (rect.ymax - rect.ymin);
        const [lon, lat] = lambert72ToWgs84(x, y);
        await ask(roundCoord(lat), roundCoord(lon), MIX.radii[k++ % MIX.radii.length]);
      }
    }
    return { serve_start_s: r(start, 3), serve_rss_mb: r(residentMb(service.pid), 1) };
  } finally {
    await service.stop();
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * Runs a measurement that may fail at some scale (a service that never gets quiet, a query refused): the failure is
 * logged and recorded with the step (its figures null, so targets on them are not evaluated), the ladder goes on.
 */
async function attempt<T>(what: string, log: (line: string) => void, failures: string[], fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    const message = `${what} failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
    log(message);
    failures.push(message);
    return undefined;
  }
}

/** Every measurement of one step. */
async function measureStep(step: LadderStep, root: string, threads: number, log: (line: string) => void): Promise<StepFigures> {
  const stamp = await ensureStepData(step, { root, seed: SEED, threads, log });
  const dataDir = stepDir(root, step);
  const params = { preset: step.preset, scale: step.scale, dataDir, threads, seed: SEED };
  const cells = stepCells(step);
  const failures: string[] = [];
  log(`${stepName(step)}: open`);
  const open = await runStage('open', params);
  log(`${stepName(step)}: precompute`);
  const precompute = await runStage('precompute', params);
  log(`${stepName(step)}: atlas export`);
  const exported = await runStage('export', params);
  log(`${stepName(step)}: annual tiles`);
  const db = join(dataDir, `.tiles-${process.pid}.sqlite`);
  const tiles = await attempt('annual tiles', log, failures, () => annualTiles(dataDir, db, SCALED_DATASET, {
    perZoom: TILES_PER_ZOOM, quietWithinS: QUIET_WITHIN_S, repeats: TILE_REPEATS, annualCacheMb: TILE_ANNUAL_CACHE_MB,
    deepSamples: TILE_DEEP_SAMPLES,
  }));
  await rm(db, { force: true });
  log(`${stepName(step)}: svc serve`);
  const serve = await attempt('svc serve', log, failures, () => serveFigures(step.preset, dataDir));
  const outdoor = Number(precompute.outdoor_cells);
  const hours = 8760;
  const byZoom = tiles && Object.fromEntries([...tiles.byZoom].map(([z, t]) => [z, {
    tiles: t.ms.length, p50_ms: r(percentile(t.ms, 0.5)), p99_ms: r(percentile(t.ms, 0.99)), largest_kb: r(t.largest / 1024, 1),
  }]));
  return {
    preset: step.preset, scale: step.scale, cells, outdoor_cells: outdoor,
    stored_bytes: storedBytes(join(dataDir, SCALED_DATASET)),
    generate_cells_per_s: r(cells / stamp.generate.wall_s, 0),
    ...stageFigures('generate', stamp.generate, cells),
    ...stageFigures('aggregate', stamp.aggregate, cells),
    ...stageFigures('open', open, cells, Number(open.open_cpu_s)),
    open_ms: r(Number(open.open_ms)), open_rss_mb: r(Number(open.open_rss_mb), 1), open_thread_rss_mb: r(Number(open.thread_rss_mb), 1),
    ...stageFigures('precompute', precompute, cells),
    precompute_mcell_hours_per_cpu_s: r((outdoor * hours) / precompute.cpu_s / 1e6, 1),
    ...stageFigures('export', exported, cells),
    export_bytes: Number(exported.total_bytes), export_largest_geotiff_bytes: Number(exported.largest_geotiff_bytes),
    pmtiles_bytes: Number(exported.pmtiles_bytes),
    tile_zooms: tiles ? `${tiles.zooms.minzoom}-${tiles.zooms.maxzoom}` : null, tiles_asked: tiles?.cold.length ?? null,
    tile_passes: TILE_REPEATS, tile_annual_cache_mb: TILE_ANNUAL_CACHE_MB,
    tile_p50_ms: tiles ? r(percentile(tiles.cold, 0.5)) : null, tile_p99_ms: tiles ? r(percentile(tiles.cold, 0.99)) : null,
    tiles_interior: tiles?.interior.length ?? null,
    tile_interior_p50_ms: tiles && tiles.interior.length > 0 ? r(percentile(tiles.interior, 0.5)) : null,
    tile_interior_p99_ms: tiles && tiles.interior.length > 0 ? r(percentile(tiles.interior, 0.99)) : null,
    tiles_deep: tiles?.deepTiles ?? null, tile_deep_requests: tiles?.deep.length ?? null,
    tile_deep_p50_ms: tiles && tiles.deep.length > 0 ? r(percentile(tiles.deep, 0.5)) : null,
    tile_deep_p99_ms: tiles && tiles.deep.length > 0 ? r(percentile(tiles.deep, 0.99)) : null,
    tile_max_kb: tiles ? r(tiles.largest / 1024, 1) : null, tiles_by_zoom: byZoom ?? null,
    // Filled in by `coldQueries` once every step exists.
    truly_cold_point_ms: null, truly_cold_radius50_ms: null, truly_cold_passes: null, page_cache: null,
    serve_start_s: serve?.serve_start_s ?? null, serve_rss_mb: serve?.serve_rss_mb ?? null,
    ...(failures.length > 0 ? { failed_stages: failures } : {}),
  };
}

/**
 * `figures` with the truly cold point and 50 m radius queries of every step: QUERY_PASSES passes over the steps of each
 * preset in alternating order, each step the median of its passes' medians (and the passes themselves).
 */
async function coldQueries(steps: readonly LadderStep[], figures: readonly StepFigures[], root: string, threads: number, log: (line: string) => void): Promise<StepFigures[]> {
  const out = [...figures];
  for (const preset of new Set(steps.map((s) => s.preset))) {
    const own = steps.map((step, k) => ({ step, k })).filter((s) => s.step.preset === preset);
    const passes = new Map(own.map(({ k }) => [k, [] as { point_ms: number; radius50_ms: number }[]]));
    const failures = new Map(own.map(({ k }) => [k, [] as string[]]));
    let pageCache: string | null = null;
    for (let pass = 0; pass < QUERY_PASSES; pass++) {
      for (const { step, k } of pass % 2 === 0 ? own : [...own].reverse()) {
        log(`${stepName(step)}: truly cold queries, pass ${pass + 1} of ${QUERY_PASSES}`);
        const params = { preset: step.preset, scale: step.scale, dataDir: stepDir(root, step), threads, seed: SEED };
        const queries = await attempt('truly cold queries', log, failures.get(k)!, () => runStage('queries', params));
        if (queries === undefined) continue;
        passes.get(k)!.push({ point_ms: r(Number(queries.truly_cold_point_ms), 1), radius50_ms: r(Number(queries.truly_cold_radius50_ms), 1) });
        pageCache = String(queries.page_cache);
      }
    }
    for (const { k } of own) {
      const done = passes.get(k)!;
      const failed = [...((out[k]!.failed_stages as string[] | undefined) ?? []), ...failures.get(k)!];
      out[k] = {
        ...out[k]!,
        truly_cold_point_ms: done.length > 0 ? r(median(done.map((p) => p.point_ms)), 1) : null,
        truly_cold_radius50_ms: done.length > 0 ? r(median(done.map((p) => p.radius50_ms)), 1) : null,
        truly_cold_passes: done, page_cache: pageCache,
        ...(failed.length > 0 ? { failed_stages: failed } : {}),
      };
    }
  }
  return out;
}

/** The chunk index's open: synthetic 20 M and 2,000 entries, and the largest and smallest store of the run, each in a fresh process. */
async function indexFigures(steps: readonly LadderStep[], root: string, threads: number) {
  const bySize = [...steps].sort((a, b) => stepCells(a) - stepCells(b));
  const at = (step: LadderStep) => runStage('index', { preset: step.preset, scale: step.scale, dataDir: stepDir(root, step), threads, seed: SEED });
  const large = await at(bySize[bySize.length - 1]);
  const small = await at(bySize[0]);
  // The issue's index figures: a synthetic chunk index of 20 million entries against one of 2,000 (bench/chunk-index.ts),
  // beside the ladder's own largest and smallest stores opened as every process opens them.
  const synthetic = (await measureChunkIndex()).figures;
  return {
    ...synthetic,
    measured_by: 'bench/chunk-index.ts: synthetic chunk indexes of 20,000,000 and 2,000 entries, each opened in a fresh process',
    ladder_store: stepName(bySize[bySize.length - 1]), ladder_small_store: stepName(bySize[0]),
    ladder_entries: large.entries, ladder_open_ms: r(Number(large.open_ms)), ladder_open_rss_mb: r(Number(large.open_rss_mb), 1),
    ladder_small_entries: small.entries, ladder_small_open_ms: r(Number(small.open_ms)), ladder_small_open_rss_mb: r(Number(small.open_rss_mb), 1),
  };
}

const verdict = (c: TargetCheck): string => (c.pass === null ? 'not run' : c.pass ? 'met' : 'MISSED');

/** Runs the ladder. */
export async function run(args: readonly string[] = []): Promise<BenchResult> {
  const { values } = parseArgs({
    args: [...args], strict: true,
    options: { steps: { type: 'string' }, data: { type: 'string' }, threads: { type: 'string' } },
  });
  const steps = parseSteps(values.steps ?? DEFAULT_STEPS);
  const root = resolve(values.data ?? join(PROJECT_ROOT, 'data', 'scale'));
  const threads = values.threads === undefined ? 2 : Math.max(1, Number.parseInt(values.threads, 10) || 2);
  const log = (line: string) => console.log(`[scale] ${line}`);
  const measured: StepFigures[] = [];
  for (const step of steps) measured.push(await measureStep(step, root, threads, log));
  const figures = await coldQueries(steps, measured, root, threads, log);
  const index = await indexFigures(steps, root, threads);
  const targets = evaluateTargets(figures);
  const slope = slopes(figures);
  const missed = targets.filter((t) => t.pass === false);
  const rows = figures.flatMap((f) => COST_STAGES.map((stage) => ({
    step: `${f.preset} x${f.scale}`, 'km²': r((f.cells as number) * (f.preset === 'demo' ? 100 : 1) / 1e6, 4),
    cells: f.cells as number, stage,
    'CPU s/Mcell': (f[`${stage}_cpu_s_per_mcell`] as number | null) ?? '', 'peak MB': (f[`${stage}_peak_rss_mb`] as number | null) ?? '',
    'wall s': (f[`${stage}_wall_s`] as number | null) ?? '',
  })));
  const queryRows = figures.map((f) => ({
    step: `${f.preset} x${f.scale}`, 'km²': '', cells: f.cells as number, stage: 'queries, tiles, serve',
    'CPU s/Mcell': `point ${f.truly_cold_point_ms} ms, r50 ${f.truly_cold_radius50_ms} ms`,
    'peak MB': `serve ${f.serve_rss_mb}, thread ${f.open_thread_rss_mb}`,
    'wall s': `tiles p99 ${f.tile_p99_ms} ms (deepest zoom's interior ${f.tile_deep_p99_ms} ms over ${f.tile_deep_requests}), max ${f.tile_max_kb} KB; serve start ${f.serve_start_s} s`,
  }));
  return {
    name: 'scale',
    title: `Scale ladder: cost per cell and peak memory against area (${threads} threads; one process per stage)`,
    columns: ['step', 'km²', 'cells', 'stage', 'CPU s/Mcell', 'peak MB', 'wall s'],
    rows: [...rows, ...queryRows],
    notes: [
      `Chunk index (synthetic): ${index.entries} entries open in ${index.open_ms} ms, ${index.open_rss_mb} MiB resident; 2,000 entries in ${index.small_open_ms} ms, ${index.small_open_rss_mb} MiB.`,
      `Chunk index (ladder stores): ${index.ladder_entries} entries (${index.ladder_store}) open in ${index.ladder_open_ms} ms, +${index.ladder_open_rss_mb} MiB; ${index.ladder_small_entries} entries (${index.ladder_small_store}) in ${index.ladder_small_open_ms} ms, +${index.ladder_small_open_rss_mb} MiB.`,
      ...targets.filter((t) => t.pass !== null).map((t) => `${t.target}, ${t.preset} ${t.figure}: ${t.ratio === null ? '' : `${r(t.ratio)} `}(limit ${t.limit}) ${verdict(t)}`),
      ...slope.filter((t) => t.ratio !== null).map((t) => `slope 4x/1x, ${t.preset} ${t.figure}: ${r(t.ratio!)}`),
      `${missed.length} target(s) missed; ${targets.filter((t) => t.pass === null).length} not evaluated (their steps did not run).`,
      'Figures from a shared machine are noisy: CPU seconds are this process and its threads; wall seconds include others\' load.',
    ],
    figures: { steps: figures, index, targets, slopes_4x_vs_1x: slope },
    failed: missed.length > 0,
  };
}
