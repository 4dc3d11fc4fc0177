/**
 * Whole-city precompute: point statistics for every outdoor cell of a city's dataset, on every compute thread, written
 * as an xarray-readable grid group (`<dataset>.precomputed/`), plus the city references the live statistics use:
 * the coverage-area summer-night mean UTCI (`thermal.summer_night_vs_city_c`) and the air benchmark over documented
 * reference locations (`air.benchmark`).
 *
 * Only cities answered by a street-level dataset are precomputed (`streetLevelCities`): a city answered by the
 * nationwide dataset (Ghent) has no grid of its own to precompute, and its answers carry neither reference.
 *
 * Resumable: each finished chunk row is saved under `<dataset>.precompute-partial/`; a rerun skips saved rows (as long
 * as the dataset's content version is unchanged) and the partial directory is removed once the group is written.
 */
import { createHash } from 'node:crypto';
import { mkdir, open, readFile, readdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ANSWERING_DATASETS, streetLevelCities } from '../cities/catalog.js';
import type { CityConfig } from '../cities/city-types.js';
import { computeDataset, precomputedDir, type CityReferences } from '../compute/datasets/dataset-cache.js';
import { PRECOMPUTE_GRIDS } from '../stats/atlas-figures.js';
import type { PrecomputeRowValue } from '../compute/tasks/protocol.js';
import { describePrecomputeProblem, precomputeProblem } from '../compute/precompute/precompute-problem.js';
import { OutsideCoverageError, ValidationError } from '../errors.js';
import { openGridGroup } from '../store/grid-group-reader.js';
import { writeGridGroup } from '../store/grid-group-writer.js';
import { annualOverviews } from '../map/annual-overviews.js';
import { openDataset } from '../store/zarr-reader.js';
import { REFERENCE_LOCATIONS } from '../cities/landmarks.js';
import type { PlannedCompute } from '../compute/planned-compute.js';
import { removeTree } from '../store/remove-tree.js';

/** Rows per chunk of the precomputed grids (rounded to whole saved rows): a band every grid holds at once. */
const GROUP_BAND_ROWS = 64;

/**
 * Columns per chunk of the precomputed grids: square chunks, so a map tile or a window decodes the few chunks it
 * overlaps, not bands across the grid's width (an annual tile's cost then does not grow with the city's extent).
 */
const GROUP_CHUNK_COLUMNS = 64;

/** Progress callbacks of `precomputeCity`. */
export interface PrecomputeProgress {
  start(totalRows: number, alreadyDone: number): void;
  row(): void;
}

/** What a precompute produced. */
export interface PrecomputeSummary {
  readonly dataset: string;
  readonly dir: string;
  readonly cells: number;
  readonly rowsComputed: number;
  readonly rowsResumed: number;
  readonly references: CityReferences;
}

function rowFile(partial: string, row: number): string {
  return join(partial, `row-${String(row).padStart(5, '0')}.bin`);
}

/**
 * Saves one row band atomically: the grids' float32 values concatenated in PRECOMPUTE_GRIDS order, written from the
 * grids as they are (no concatenated copy: a row's grids are garbage the main thread makes for every row).
 */
async function saveRow(partial: string, value: PrecomputeRowValue): Promise<void> {
  const file = rowFile(partial, value.chunkRow);
  const handle = await open(`${file}.tmp`, 'w');
  try {
    const parts = PRECOMPUTE_GRIDS.map((g) => {
      const grid = value.grids[g];
      return new Uint8Array(grid.buffer, grid.byteOffset, grid.byteLength);
    });
    const { bytesWritten } = await handle.writev(parts);
    const size = parts.reduce((n, p) => n + p.byteLength, 0);
    if (bytesWritten !== size) throw new Error(`Row ${value.chunkRow} of the precompute: ${bytesWritten} of ${size} bytes written to ${file}.tmp.`);
  } finally {
    await handle.close();
  }
  await rename(`${file}.tmp`, file);
}

/**
 * Frees a saved row's buffers now, not at some later collection: each row arrives as fresh buffers (a copy from its
 * thread or a decoded message) that nothing reads once saved, and the main thread's small heap is collected so
 * rarely that garbage rows of a wide city otherwise pile up to tens of megabytes. Detaching a buffer releases its
 * memory at once; `value` must not be used after.
 */
function releaseRow(value: PrecomputeRowValue): void {
  for (const buffer of new Set(PRECOMPUTE_GRIDS.map((g) => value.grids[g].buffer))) {
    if (buffer instanceof ArrayBuffer && !buffer.detached) buffer.transfer(0);
  }
}

/** Throws ValidationError unless `city` is answered by a street-level dataset (the only kind precomputed). */
export function checkPrecomputable(city: CityConfig): void {
  if (ANSWERING_DATASETS[city.dataset].sampling === 'street') return;
  const eligible = streetLevelCities().map((c) => c.id).join(', ');
  throw new ValidationError(
    `City '${city.id}' is answered by the nationwide dataset '${city.dataset}', which has no street-level grid to ` +
      `precompute; precompute runs for cities with a street-level dataset: ${eligible}.`,
  );
}

/**
 * Why the precompute of `city` in `dataDir` would not be served (the annual map layers, the atlas export): none, made
 * from other data, or by an earlier version lacking figures; undefined when it is current. The dataset must exist.
 */
export async function precomputeNeed(dataDir: string, city: CityConfig): Promise<string | undefined> {
  const { grid, attrs } = await openDataset(join(dataDir, city.dataset));
  const group = await openGridGroup(precomputedDir(dataDir, city.dataset), grid.ny, grid.nx);
  if (group === undefined) return 'none yet';
  const problem = precomputeProblem(group, attrs.content_version);
  return problem && `the last one ${describePrecomputeProblem(problem, attrs.content_version)}`;
}

/** How rows are sent to the compute back end. */
export interface PrecomputeOptions {
  /** Rows in flight at once (default: all; a local pool queues them itself, a cluster run bounds its queue). */
  readonly concurrency?: number;
  /**
   * Gives each row task a stable id (`<prefix>-<content hash>-<row>`): a coordinator that resumes within the queue's
   * duplicate window re-publishes a row in flight without queuing it twice, and picks up its stored result.
   */
  readonly taskIdPrefix?: string;
  /** Rows per chunk of the output group, rounded to whole chunk rows of the dataset (default GROUP_BAND_ROWS). */
  readonly bandRows?: number;
}

/** Runs `work` over `items` with at most `limit` at once; rejects with the first failure. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
}

/** Runs the precompute of `city`'s dataset with `compute`; the city must be answered by a street-level dataset. */
export async function precomputeCity(
  compute: PlannedCompute,
  dataDir: string,
  city: CityConfig,
  progress?: PrecomputeProgress,
  options: PrecomputeOptions = {},
): Promise<PrecomputeSummary> {
  checkPrecomputable(city);
  const ds = await computeDataset(dataDir, city.dataset);
  const { grid, chunk } = ds.reader;
  const chunkRows = Math.ceil(grid.ny / chunk.rows);
  const partial = join(dataDir, `${city.dataset}.precompute-partial`);
  const manifest = join(partial, 'manifest.json');
  const expected = JSON.stringify({ content_version: ds.reader.attrs.content_version, grids: PRECOMPUTE_GRIDS });
  const current = await readFile(manifest, 'utf8').catch(() => undefined);
  if (current !== expected) await removeTree(partial);
  await mkdir(partial, { recursive: true });
  await writeFile(manifest, expected);
  const done = new Set((await readdir(partial)).filter((f) => /^row-\d+\.bin$/.test(f)).map((f) => Number(f.slice(4, 9))));
  const todo = Array.from({ length: chunkRows }, (_, r) => r).filter((r) => !done.has(r));
  progress?.start(chunkRows, done.size);
  let cells = 0;
  const version = createHash('sha256').update(ds.reader.attrs.content_version).digest('hex').slice(0, 12);
  await eachLimited(todo, options.concurrency ?? todo.length, async (r) => {
    const id = options.taskIdPrefix === undefined ? undefined : `${options.taskIdPrefix}-${version}-${r}`;
    const value = await compute.precomputeRow(city.dataset, r, undefined, id === undefined ? undefined : { id });
    await saveRow(partial, value);
    releaseRow(value);
    cells += value.cellsComputed;
    progress?.row();
  });

  // The group is written grid after grid, each band by band, from the saved rows (a band: whole saved rows, about
  // GROUP_BAND_ROWS of them), so memory holds one band of one grid, never whole grids nor a band of every grid; the
  // summer-night mean is summed on the way.
  const bandRows = chunk.rows * Math.max(1, Math.round((options.bandRows ?? GROUP_BAND_ROWS) / chunk.rows));
  const night = { sum: 0, n: 0 };
  const nightGrid = PRECOMPUTE_GRIDS.indexOf('summer_night_mean_utci_c');
  await checkSavedRows(partial, grid.nx, grid.ny, chunk.rows);
  const airBenchmark = await cityAirBenchmark(compute, city);
  let references: CityReferences = {};
  const dir = precomputedDir(dataDir, city.dataset);
  await writeGridGroup(
    dir,
    grid,
    PRECOMPUTE_GRIDS.map((name) => ({ name, attrs: { long_name: name.replace(/_/g, ' ') } })),
    {
      bandRows,
      chunkCols: GROUP_CHUNK_COLUMNS,
      read: async (r0, r1, k) => {
        const values = await readSavedRows(partial, grid.nx, grid.ny, chunk.rows, r0, r1, k);
        if (k === nightGrid) {
          for (const v of values) {
            if (Number.isFinite(v)) {
              night.sum += v;
              night.n++;
            }
          }
        }
        return values;
      },
    },
    () => {
      references = {
        ...(night.n > 0 ? { summer_night_mean_utci_c: round1(night.sum / night.n) } : {}),
        ...(airBenchmark === undefined ? {} : { air_benchmark: airBenchmark }),
      };
      return {
        dataset: city.dataset, city: city.id, content_version: ds.reader.attrs.content_version,
        generated_utc: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'), sampling: 'point', references,
        reference_locations: REFERENCE_LOCATIONS[city.id] ?? [],
      };
    },
    annualOverviews(grid, PRECOMPUTE_GRIDS),
  );
  await removeTree(partial);
  return { dataset: city.dataset, dir, cells, rowsComputed: todo.length, rowsResumed: done.size, references };
}

const round1 = (v: number) => Math.round(v * 10) / 10;

/** The error of a saved row file that does not hold its whole band. */
const truncatedRow = (partial: string, row: number) =>
  new ValidationError(`Partial precompute row ${row} is truncated; delete ${partial} and rerun.`);

/** Checks once, before the group is written, that every saved row file holds its whole band of every grid. */
async function checkSavedRows(partial: string, nx: number, ny: number, chunkRows: number): Promise<void> {
  for (let r = 0; r * chunkRows < ny; r++) {
    const { size } = await stat(rowFile(partial, r));
    if (size !== Math.min(chunkRows, ny - r * chunkRows) * nx * PRECOMPUTE_GRIDS.length * 4) throw truncatedRow(partial, r);
  }
}

/**
 * Rows `r0` … `r1` − 1 of precomputed grid `k` (its index in PRECOMPUTE_GRIDS) from the saved row files (`r0` a
 * multiple of `chunkRows`; their sizes checked by `checkSavedRows`), each file's part read straight into the result.
 */
async function readSavedRows(partial: string, nx: number, ny: number, chunkRows: number, r0: number, r1: number, k: number): Promise<Float32Array> {
  const values = new Float32Array((r1 - r0) * nx);
  const bytes = new Uint8Array(values.buffer);
  for (let r = r0 / chunkRows; r * chunkRows < r1; r++) {
    const band = Math.min(chunkRows, ny - r * chunkRows) * nx;
    const file = await open(rowFile(partial, r), 'r');
    try {
      const { bytesRead } = await file.read(bytes, (r * chunkRows - r0) * nx * 4, band * 4, k * band * 4);
      if (bytesRead !== band * 4) throw truncatedRow(partial, r);
    } finally {
      await file.close();
    }
  }
  return values;
}

/** The air benchmark: the mean good-air share over the city's reference locations (undefined without any). */
async function cityAirBenchmark(compute: PlannedCompute, city: CityConfig): Promise<CityReferences['air_benchmark']> {
  const goods: number[] = [];
  for (const loc of REFERENCE_LOCATIONS[city.id] ?? []) {
    // A dataset smaller than the city's zone (a scaled benchmark block) may not hold every reference location.
    const result = await compute.computeStats({ dataset: city.dataset, lat: loc.lat, lon: loc.lon }).catch((err: unknown) => {
      if (err instanceof OutsideCoverageError) return undefined;
      throw err;
    });
    if (result === undefined) continue;
    const good = (result.blocks.air as { good_pct?: number } | undefined)?.good_pct;
    if (typeof good === 'number') goods.push(good);
  }
  if (goods.length === 0) return undefined;
  return { good_pct: round1(goods.reduce((a, b) => a + b, 0) / goods.length), locations: goods.length };
}
