import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { LAMBERT72_EPSG, LAMBERT72_PROJ4 } from '../geo/lambert72.js';
import type { DatasetSpec, GridGeometry } from '../store/dataset-types.js';
import { STAND_IN_KIND } from '../store/provenance.js';
import { createDatasetWriter } from '../store/zarr-writer.js';
import { aggregateDataset, aggregationRefused, defaultAggregateLevels } from '../compute/aggregates/dataset-aggregation.js';
import { createLocalCompute } from '../compute/local-compute.js';
import { workerPath } from '../util/paths.js';
import { createProgress, type Progress } from '../util/progress.js';
import { writeByWindows } from './banded-generation.js';
import type { CellFeatures } from './cell-features.js';
import { buildDrivers } from './drivers.js';
import { planFeatureSource } from './feature-source.js';
import { planGrid } from './plan-grid.js';
import { wholeGrid } from './grid-window.js';
import { generateMeteorology } from './meteorology.js';
import { presetPlans, type DatasetPlan, type Preset } from './presets.js';
import { checkDiskRoom, estimateStoredBytes, type FreeBytes } from './disk-estimate.js';
import { isScalable, scaledPlan } from './scaled-plans.js';
import { removeStaleTemporaries } from '../store/stale-temporaries.js';
import { ValidationError } from '../errors.js';
import { buildUtciGrid } from './utci-grid.js';

/** Bumped whenever the model's output changes, so content versions (and caches) change with it. */
const MODEL_VERSION = 5;
/** The reference year every generated dataset describes. */
export const REFERENCE_YEAR = 2023;
/** Weather reference station (Uccle) for the synthetic weather year. */
const STATION = { lat: 50.7985, lon: 4.3587 };
const TIMEZONE = 'Europe/Brussels';
const ATTRIBUTION = 'Stand-in city model of svc-api (synthetic data for demonstration and testing)';
/** What every generated dataset records as its model (store/provenance.ts). */
const MODEL = 'svc-api stand-in city model';

/** Options of `generatePreset`. */
export interface GenerateOptions {
  readonly preset: Preset;
  readonly outDir: string;
  readonly seed: number;
  readonly threads?: number | undefined;
  /** Only these dataset ids of the preset (default: all). */
  readonly datasets?: readonly string[];
  /** Show a progress bar on stderr (default true). */
  readonly progress?: boolean;
  /** The preset's street-level dataset over `scale` times its area instead of the preset (scaled-plans.ts). */
  readonly scale?: number | undefined;
  /** Write the stored aggregates where the resolution gets them (default true). */
  readonly aggregate?: boolean;
  /** Free bytes under a directory (default: statfs); tests fake a full disk through it. */
  readonly freeBytes?: FreeBytes;
  /**
   * Only the first `hours` hours of the reference year (default: all of it): the memory benchmark's short years, whose
   * per-cell features, and so memory against the area, are the whole year's. The content version says so.
   */
  readonly hours?: number;
  /** Chunks a side of the windows generation works by (default `WINDOW_CHUNKS`; tests use small ones). */
  readonly windowChunks?: number;
  /** Where lines for the user go (what an interrupted earlier run left and what is redone); default stderr. */
  readonly notice?: (line: string) => void;
}

/** The plans a generation writes: the preset's, or its scaled street-level dataset. */
export function generationPlans(options: Pick<GenerateOptions, 'preset' | 'scale' | 'datasets'>): DatasetPlan[] {
  const { preset, scale } = options;
  if (scale !== undefined && !isScalable(preset)) {
    throw new ValidationError(`--scale applies to a preset with a street-level dataset, not to --${preset}.`);
  }
  const plans = scale === undefined || !isScalable(preset) ? presetPlans(preset) : [scaledPlan(preset, scale)];
  return plans.filter((p) => !options.datasets || options.datasets.includes(p.id));
}

export { planGrid };

/** The dataset spec of a plan for a seed (content version derived from plan, seed and model version). */
export function planSpec(plan: DatasetPlan, seed: number, hours: number, generatedUtc: string): DatasetSpec {
  const grid = planGrid(plan);
  // A year cut short is another content (the hours enter the version only then, so full years keep theirs).
  const cut = hours < hoursOf(REFERENCE_YEAR) ? { hours } : {};
  const version = createHash('sha256')
    .update(JSON.stringify({ plan, seed, MODEL_VERSION, ...cut }))
    .digest('hex')
    .slice(0, 12);
  return {
    attrs: {
      dataset: plan.id, title: plan.title, crs_epsg: LAMBERT72_EPSG, crs_proj4: LAMBERT72_PROJ4,
      resolution_m: plan.resolution_m, reference_year: REFERENCE_YEAR, timezone: TIMEZONE,
      generated_utc: generatedUtc, content_version: `m${MODEL_VERSION}-${version}`, fields: plan.fields,
      attribution: ATTRIBUTION,
      model: MODEL, model_kind: STAND_IN_KIND, model_version: String(MODEL_VERSION), model_seed: seed,
      source: `${MODEL}: a deterministic seeded generator standing in for a city-scale simulation (synthetic data)`,
    },
    grid,
    hours,
    chunk: { hours, rows: plan.chunkCells, cols: plan.chunkCells },
  };
}

/** The per-cell features of a plan's whole grid (for tests that look up what a cell is; generation goes by windows). */
export function planFeatures(plan: DatasetPlan, grid: GridGeometry, seed: number): CellFeatures {
  return planFeatureSource(plan, grid, seed).features(wholeGrid(grid));
}

/**
 * Writes the stored aggregates of the generated datasets whose grid makes them worthwhile (the 1 m benchmark block;
 * none at 10 m or coarser), with a compute pool of `threads` threads.
 */
async function aggregateGenerated(outDir: string, plans: readonly DatasetPlan[], threads: number, progress: boolean): Promise<void> {
  const wanted = plans.filter((p) => defaultAggregateLevels(p.resolution_m, { hours: 0, rows: p.chunkCells, cols: p.chunkCells }).length > 0);
  if (wanted.length === 0) return;
  const compute = await createLocalCompute({ dataDir: outDir, threads });
  try {
    for (const plan of wanted) {
      let bar: Progress | undefined;
      const result = await aggregateDataset(compute, outDir, plan.id, {
        onStart: (blocks) => { bar = progress ? createProgress(`aggregate ${plan.id}`, blocks) : undefined; },
        onBlock: () => bar?.tick(),
      });
      bar?.done();
      if (result.damaged.length > 0) throw aggregationRefused(result);
    }
  } finally {
    await compute.close();
  }
}

/** Hours of a calendar year (UTC). */
function hoursOf(year: number): number {
  return (Date.UTC(year + 1, 0, 1) - Date.UTC(year, 0, 1)) / 3_600_000;
}

/** Generates every dataset of a preset under `outDir/<dataset id>`, atomically each; returns their directories. */
export async function generatePreset(options: GenerateOptions): Promise<string[]> {
  const plans = generationPlans(options);
  const notice = options.notice ?? ((line: string) => process.stderr.write(`${line}\n`));
  // What interrupted runs left goes first: the room it held counts as free.
  for (const plan of plans) {
    for (const leftover of await removeStaleTemporaries(join(options.outDir, plan.id))) {
      notice(`redoing ${plan.id}: an earlier run (process ${leftover.pid}) was interrupted; removed its partial ${leftover.path}`);
    }
  }
  const hours = options.hours ?? hoursOf(REFERENCE_YEAR);
  if (!(Number.isSafeInteger(hours) && hours >= 1 && hours <= hoursOf(REFERENCE_YEAR))) {
    throw new ValidationError(`hours must be a whole number from 1 to ${hoursOf(REFERENCE_YEAR)}, got ${hours}.`);
  }
  await checkDiskRoom(options.outDir, estimateStoredBytes(plans, hours), options.freeBytes);
  const met = generateMeteorology({ year: REFERENCE_YEAR, seed: options.seed, lat: STATION.lat, lon: STATION.lon });
  const drivers = buildDrivers(met, TIMEZONE);
  const needsUtci = plans.some((p) => p.fields.includes('utci'));
  const utci = needsUtci ? buildUtciGrid(drivers.ta, drivers.rh) : undefined;
  const threads = Math.max(1, options.threads ?? availableParallelism());
  const pool = new Piscina({
    filename: workerPath('generate-worker'),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 60_000,
  });
  const generatedUtc = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const dirs: string[] = [];
  try {
    for (const plan of plans) {
      const spec = planSpec(plan, options.seed, hours, generatedUtc);
      const source = planFeatureSource(plan, spec.grid, options.seed);
      const dir = join(options.outDir, plan.id);
      const writer = await createDatasetWriter(dir, spec);
      try {
        let progress: Progress | undefined;
        await writeByWindows({
          writer, source, fields: plan.fields, pool, shared: { drivers, utci }, windowChunks: options.windowChunks,
          onStart: (tasks) => { progress = options.progress === false ? undefined : createProgress(`generate ${plan.id}`, tasks); },
          onTask: () => progress?.tick(),
        });
        progress?.done();
        await writer.finalize();
      } catch (err) {
        await writer.abort();
        throw err;
      }
      dirs.push(dir);
    }
  } finally {
    await pool.destroy();
  }
  if (options.aggregate !== false) await aggregateGenerated(options.outDir, plans, threads, options.progress !== false);
  return dirs;
}
