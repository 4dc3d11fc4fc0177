/**
 * `npm run bench -- area`: statistics for areas (docs/area.md), in sections run one after the other:
 *
 * - sizes: squares of 1 ha, 10 ha and 1 km² on the demo data (10 m; `BENCH_AREA_DATA`, default data/demo, generated
 *   when missing) and 1 ha on the 1 m benchmark block (data/bench, generated when missing): planning (exact coverage,
 *   the mask), then the pooled statistics of the mask hot and truly cold (the page cache dropped as root, else the
 *   dataset's files evicted: page-cache.ts), against the naive path (every chunk the polygon touches decoded, no
 *   stored aggregates), on the same threads;
 * - circle: a 50 m circle on the 1 m block as a 256-gon (plan + pooled statistics) and as a radius query, hot; the
 *   polygon path must stay within 1.2 × the radius path;
 * - atlas: the distribution of every atlas figure over the 1 km² square (the `area-figures` task), hot.
 *
 * - batch: 1,000 points in one `POST /historical/batch` against 1,000 single requests over HTTP, hot and cold, against
 *   the service listening in a child process on the demo data (bench/batch.ts; also `npm run bench -- batch`).
 *
 * A section is a function returning rows; a further comparison is a section of its own in `SECTIONS`.
 */
import { access } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { boundingRect, planAreaCells, type AreaCells } from '../src/area/area-plan.js';
import { AREA_FIGURES_TASK, type AreaFiguresTask } from '../src/area/area-figures-task.js';
import { createLocalCompute } from '../src/compute/local-compute.js';
import { openComputeDataset, type ComputeDataset } from '../src/compute/datasets/dataset-cache.js';
import type { PlannedCompute } from '../src/compute/planned-compute.js';
import { lambert72ToWgs84, wgs84ToLambert72 } from '../src/geo/crs.js';
import type { MultiPolygonRings } from '../src/geo/polygon.js';
import { roundCoord } from '../src/geo/round.js';
import { generatePreset } from '../src/model/generate.js';
import { BENCH_RECT } from '../src/model/presets.js';
import { PROJECT_ROOT } from '../src/util/paths.js';
import { dropPageCache } from './page-cache.js';
import type { BenchResult } from './registry.js';
import { batchFigures, compareBatch } from './batch.js';
import { median } from './timing.js';

/** Rounds: hot runs and truly cold runs per measurement (the machine is shared: few and short). */
const HOT = 3;
const COLD = 2;
/** The polygon path of a circle may take at most this many times the radius path. */
const CIRCLE_TARGET = 1.2;

type Row = Record<string, string | number>;

/** What every section works with. */
interface Bench {
  readonly demoDir: string;
  readonly blockDir: string;
  /** Per data directory: the pool using stored aggregates and the naive one. */
  readonly pools: Map<string, { readonly fast: PlannedCompute; readonly naive: PlannedCompute }>;
  readonly figures: Record<string, unknown>;
}

const round1 = (v: number) => Number(v.toFixed(1));

async function ensure(dir: string, dataset: string, preset: 'demo' | 'bench'): Promise<void> {
  try {
    await access(join(dir, dataset, '.zmetadata'));
  } catch {
    console.log(`Generating the ${preset} data in ${dir} (once)…`);
    await generatePreset({ preset, outDir: dir, seed: 1 });
  }
}

async function times(n: number, fn: () => Promise<unknown>, before?: () => void): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    before?.();
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

/** A square of `side` metres centred at (x, y), EPSG:31370. */
function square(x: number, y: number, side: number): MultiPolygonRings {
  const h = side / 2;
  return [[[[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h], [x - h, y - h]]]];
}

/** A circle of radius r as an n-gon through the circle (EPSG:31370). */
function circle(x: number, y: number, r: number, n = 256): MultiPolygonRings {
  const ring = Array.from({ length: n }, (_, i) => [x + r * Math.cos((2 * Math.PI * i) / n), y + r * Math.sin((2 * Math.PI * i) / n)] as [number, number]);
  return [[[...ring, ring[0]!]]];
}

/** An area's plan as the service makes it: the outdoor mask's window over its bounding box read, then the cells. */
async function planOutdoor(ds: ComputeDataset, polygons: MultiPolygonRings): Promise<AreaCells> {
  return planAreaCells(polygons, ds.reader.grid, await ds.outdoor.window(boundingRect(polygons, ds.reader.grid)), undefined);
}

/** Planning, then the pooled statistics hot and truly cold, aggregated and naive, of one polygon. */
async function sizeRow(b: Bench, label: string, dir: string, dataset: string, polygons: MultiPolygonRings): Promise<Row> {
  const ds = await openComputeDataset(dir, dataset);
  const planMs = await times(HOT, () => planOutdoor(ds, polygons));
  const plan = await planOutdoor(ds, polygons);
  const { fast, naive } = b.pools.get(dir)!;
  const storeDir = join(dir, dataset);
  await fast.computeCells(dataset, plan.mask);
  const hot = await times(HOT, () => fast.computeCells(dataset, plan.mask));
  const naiveHot = await times(HOT, () => naive.computeCells(dataset, plan.mask));
  let how = '';
  const drop = () => { how = dropPageCache(storeDir); };
  const cold = await times(COLD, () => fast.computeCells(dataset, plan.mask), drop);
  const naiveCold = await times(COLD, () => naive.computeCells(dataset, plan.mask), drop);
  if (JSON.stringify(await fast.computeCells(dataset, plan.mask)) !== JSON.stringify(await naive.computeCells(dataset, plan.mask))) {
    throw new Error(`${label}: the aggregated and the naive paths disagree; the benchmark stops.`);
  }
  const key = label.replace(/[^a-z0-9]+/gi, '_').toLowerCase();
  b.figures[key] = {
    cells_touched: plan.touched, mask_cells: plan.mask.length, plan_ms: round1(median(planMs)),
    hot_ms: round1(median(hot)), truly_cold_ms: round1(median(cold)), naive_hot_ms: round1(median(naiveHot)),
    naive_truly_cold_ms: round1(median(naiveCold)), cold_by: how,
  };
  return {
    area: label, cells: plan.touched, 'plan ms': round1(median(planMs)), 'hot ms': round1(median(hot)), 'cold ms': round1(median(cold)),
    'naive hot ms': round1(median(naiveHot)), 'naive cold ms': round1(median(naiveCold)),
  };
}

/** Squares of 1 ha, 10 ha and 1 km² at 10 m, 1 ha at 1 m. */
async function sizes(b: Bench): Promise<Row[]> {
  const [gx, gy] = wgs84ToLambert72(4.3519, 50.8466);
  const rows = [];
  for (const [label, side] of [['1 ha, demo 10 m', 100], ['10 ha, demo 10 m', 316.23], ['1 km², demo 10 m', 1000]] as const) {
    rows.push(await sizeRow(b, label, b.demoDir, 'brussels_extended', square(gx, gy, side)));
  }
  const bx = (BENCH_RECT.xmin + BENCH_RECT.xmax) / 2;
  const by = (BENCH_RECT.ymin + BENCH_RECT.ymax) / 2;
  rows.push(await sizeRow(b, '1 ha, bench block 1 m', b.blockDir, 'bench_1m', square(bx, by, 100)));
  return rows;
}

/** The same 50 m circle as a polygon and as a radius query, hot. */
async function circleVsRadius(b: Bench): Promise<Row[]> {
  const dir = b.blockDir;
  const ds = await openComputeDataset(dir, 'bench_1m');
  const [lon, lat] = lambert72ToWgs84((BENCH_RECT.xmin + BENCH_RECT.xmax) / 2, (BENCH_RECT.ymin + BENCH_RECT.ymax) / 2);
  const request = { dataset: 'bench_1m', lat: roundCoord(lat), lon: roundCoord(lon), radius_m: 50 };
  const [x, y] = wgs84ToLambert72(request.lon, request.lat);
  const polygons = circle(x, y, 50);
  const { fast } = b.pools.get(dir)!;
  const polygonPath = async () => fast.computeCells('bench_1m', (await planOutdoor(ds, polygons)).mask);
  await polygonPath();
  await fast.computeStats(request);
  const poly = median(await times(HOT + 2, polygonPath));
  const radius = median(await times(HOT + 2, () => fast.computeStats(request)));
  const ratio = poly / radius;
  b.figures.circle50_1m = { polygon_ms: round1(poly), radius_ms: round1(radius), ratio: Number(ratio.toFixed(2)), target: CIRCLE_TARGET, met: ratio <= CIRCLE_TARGET };
  return [
    { area: '50 m circle as 256-gon, bench block 1 m (hot)', cells: '', 'plan ms': '', 'hot ms': round1(poly), 'cold ms': '', 'naive hot ms': '', 'naive cold ms': '' },
    { area: '50 m radius query, same place (hot)', cells: '', 'plan ms': '', 'hot ms': round1(radius), 'cold ms': '', 'naive hot ms': '', 'naive cold ms': '' },
  ];
}

/** The atlas distribution of the 1 km² square, hot. */
async function atlasDistribution(b: Bench): Promise<Row[]> {
  const ds = await openComputeDataset(b.demoDir, 'brussels_extended');
  const [gx, gy] = wgs84ToLambert72(4.3519, 50.8466);
  const plan = await planOutdoor(ds, square(gx, gy, 1000));
  const task: AreaFiguresTask = {
    kind: 'area-figures', dataDir: b.demoDir, dataset: 'brussels_extended', cells: plan.outdoor, weights: plan.weights, blocks: ['air', 'wind', 'thermal'],
  };
  const { fast } = b.pools.get(b.demoDir)!;
  const first = await fast.runTask(AREA_FIGURES_TASK, task);
  if (!first.available) throw new Error(`The demo data has no current precompute (${first.reason}); run svc precompute first.`);
  // Every thread has read its bands once: hot.
  await Promise.all(Array.from({ length: fast.threads * 2 }, () => fast.runTask(AREA_FIGURES_TASK, task)));
  const hot = median(await times(HOT + 2, () => fast.runTask(AREA_FIGURES_TASK, task)));
  b.figures.atlas_1km2_hot_ms = round1(hot);
  return [{ area: `atlas distribution, 1 km² demo 10 m (${plan.outdoor.length} outdoor cells, hot)`, cells: plan.touched, 'plan ms': '', 'hot ms': round1(hot), 'cold ms': '', 'naive hot ms': '', 'naive cold ms': '' }];
}

/** 1,000 points in one batch against 1,000 single requests over HTTP on the demo data (bench/batch.ts). */
async function batchVsSingles(b: Bench): Promise<Row[]> {
  const c = await compareBatch(b.demoDir, HOT);
  b.figures.batch_1000 = batchFigures(c, HOT);
  const row = (area: string, hot: number, cold: number | '') => ({ area, cells: 1000, 'plan ms': '', 'hot ms': round1(hot), 'cold ms': cold === '' ? '' : round1(cold), 'naive hot ms': '', 'naive cold ms': '' });
  return [
    row('1,000 points, one POST /historical/batch (HTTP)', c.hotBatch, c.coldBatch),
    row('1,000 points, GET /historical/stats one after the other (HTTP)', c.hotSequential, ''),
    row('1,000 points, GET /historical/stats 8 at a time (HTTP)', c.hotConcurrent, c.coldSingles),
  ];
}

/** The sections, in order; a new comparison is one more function here. */
const SECTIONS: readonly ((b: Bench) => Promise<Row[]>)[] = [sizes, circleVsRadius, atlasDistribution, batchVsSingles];

/** Runs the area benchmark. */
export async function run(): Promise<BenchResult> {
  const raw = process.env.BENCH_AREA_DATA;
  const demoDir = resolve(raw === undefined || raw === '' ? join(PROJECT_ROOT, 'data/demo') : raw);
  const blockDir = join(PROJECT_ROOT, 'data', 'bench');
  await ensure(demoDir, 'brussels_extended', 'demo');
  await ensure(blockDir, 'bench_1m', 'bench');
  const threads = availableParallelism();
  const pools = new Map<string, { fast: PlannedCompute; naive: PlannedCompute }>();
  for (const dir of [demoDir, blockDir]) {
    pools.set(dir, { fast: await createLocalCompute({ dataDir: dir, threads }), naive: await createLocalCompute({ dataDir: dir, threads, aggregates: false }) });
  }
  const b: Bench = { demoDir, blockDir, pools, figures: { threads } };
  try {
    const rows: Row[] = [];
    for (const section of SECTIONS) rows.push(...(await section(b)));
    const circleFig = b.figures.circle50_1m as { ratio: number; met: boolean };
    return {
      name: 'area',
      title: `Statistics for areas (${threads} threads; medians of ${HOT} hot and ${COLD} truly cold runs; pooled statistics of the mask)`,
      columns: ['area', 'cells', 'plan ms', 'hot ms', 'cold ms', 'naive hot ms', 'naive cold ms'],
      rows,
      figures: b.figures,
      notes: [
        'plan: exact coverage fractions and the mask on the main thread; hot/cold: the kernels over the mask (stored aggregates where they cover whole blocks); naive: every chunk the mask touches decoded.',
        `Circle as polygon vs radius query: ${circleFig.ratio}× (target ≤ ${CIRCLE_TARGET}: ${circleFig.met ? 'met' : 'NOT met'}).`,
        `1,000 points hot: one batch ${(b.figures.batch_1000 as { hot_speedup_vs_sequential: number }).hot_speedup_vs_sequential}× faster than sequential single requests (target ≥ 5×; its own run: npm run bench -- batch, which fails when it is missed).`,
      ],
      failed: !circleFig.met,
    };
  } finally {
    for (const { fast, naive } of pools.values()) {
      await fast.close();
      await naive.close();
    }
  }
}
