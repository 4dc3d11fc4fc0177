/**
 * The surroundings grid of a report, computed in a compute thread: for every outdoor grid cell of the window
 * (surroundings-window.ts) a year of each field is reduced to one value — annual mean NO2, the wind exceedance shares,
 * the mean summer-daytime UTCI — and display cells average their outdoor cells. Each chunk of each needed field is read
 * once, whole (through the dataset reader, which checks it against the chunk manifest), and scanned hour-major.
 */
import { windClass } from '../../classification/wind.js';
import { wgs84ToLambert72 } from '../../geo/crs.js';
import { chunksRect, clipRect, unionRect, type GridRect, type OutdoorWindow } from '../../sampling/outdoor-window.js';
import { sampleCells, sampleReach } from '../../sampling/sampling.js';
import { roundHalfUp } from '../../stats/numeric.js';
import { WIND_ALLOWANCE_BP } from '../../stats/scoring.js';
import type { ChunkShape, GridGeometry, HourlyField } from '../../store/dataset-types.js';
import type { StatsRequest, SurroundingsCover, SurroundingsGrid, SurroundingsLayers } from '../compute-types.js';
import type { ComputeDataset } from '../datasets/dataset-cache.js';
import { displayIndexOf, planSurroundingsWindow, WINDOW_LIMITS, type SurroundingsWindow, type WindowLimits } from './surroundings-window.js';

/** Version of the surroundings computation; part of its cache keys. Bump on any change of its output. */
export const SURROUNDINGS_VERSION = 'surroundings/1';

/** Season code of summer in `Calendar.season`. */
const SUMMER = 2;

/** Sums over the outdoor cells of each display cell (each grid cell weighs the same). */
interface DisplaySums {
  readonly no2: Float64Array;
  readonly no2Cells: Uint32Array;
  /** Shares of hours at wind class ≥ 2, ≥ 3, ≥ 4 and = 5, four per display cell. */
  readonly wind: Float64Array;
  readonly windCells: Uint32Array;
  readonly utci: Float64Array;
  readonly utciCells: Uint32Array;
}

/**
 * The wind classes of a place from its exceedance shares (fractions of valid hours at class ≥ 2, ≥ 3, ≥ 4, = 5), with
 * the wind score's allowances: `comfort` is the highest class 2–4 whose cumulative share passes 5 %, else 1 (Calm);
 * `danger` whether the Danger share passes 0.05 %.
 */
export function placeWindClasses(shares: ArrayLike<number>): { comfort: number; danger: boolean } {
  const passes = (k: number): boolean => shares[k - 1] * 10_000 > WIND_ALLOWANCE_BP[k];
  let comfort = 1;
  for (let k = 3; k >= 1; k--) {
    if (passes(k)) {
      comfort = k + 1;
      break;
    }
  }
  return { comfort, danger: passes(4) };
}

/** Adds one chunk's outdoor window cells to the display sums. */
async function addChunk(
  ds: ComputeDataset, outdoor: OutdoorWindow, window: SurroundingsWindow, chunkRow: number, chunkCol: number, sums: DisplaySums,
): Promise<void> {
  const { reader, calendar } = ds;
  const { grid, chunk, hours } = reader;
  const offsets: number[] = [];
  const displays: number[] = [];
  for (let r = 0; r < chunk.rows; r++) {
    for (let c = 0; c < chunk.cols; c++) {
      const row = chunkRow * chunk.rows + r;
      const col = chunkCol * chunk.cols + c;
      if (row >= grid.ny || col >= grid.nx || outdoor.at(row * grid.nx + col) !== 1) continue;
      const display = displayIndexOf(window, row, col);
      if (display < 0) continue;
      offsets.push(r * chunk.cols + c);
      displays.push(display);
    }
  }
  const n = offsets.length;
  if (n === 0) return;
  const at = Int32Array.from(offsets);
  const plane = chunk.rows * chunk.cols;
  const has = (f: HourlyField): boolean => reader.fields.includes(f);
  const read = (f: HourlyField) => reader.readChunk(f, chunkRow, chunkCol);

  if (has('no2')) {
    const data = await read('no2');
    const { scale_factor: s, add_offset: o, _FillValue: fill } = reader.encoding('no2');
    const sum = new Float64Array(n);
    const count = new Uint32Array(n);
    for (let t = 0; t < hours; t++) {
      const base = t * plane;
      for (let i = 0; i < n; i++) {
        const raw = data[base + at[i]];
        const v = raw * s + o;
        if (raw !== fill && v > 0) {
          sum[i] += v;
          count[i]++;
        }
      }
    }
    for (let i = 0; i < n; i++) {
      if (count[i] === 0) continue;
      sums.no2[displays[i]] += sum[i] / count[i];
      sums.no2Cells[displays[i]]++;
    }
  }

  if (has('ucomfort')) {
    const u = await read('ucomfort');
    const g = has('ugust') ? await read('ugust') : undefined;
    const eu = reader.encoding('ucomfort');
    const eg = has('ugust') ? reader.encoding('ugust') : undefined;
    const atLeast = new Uint32Array(n * 4);
    const valid = new Uint32Array(n);
    for (let t = 0; t < hours; t++) {
      const base = t * plane;
      for (let i = 0; i < n; i++) {
        const rawU = u[base + at[i]];
        if (rawU === eu._FillValue) continue;
        valid[i]++;
        const rawG = g === undefined ? 0 : g[base + at[i]];
        const gust = eg === undefined || rawG === eg._FillValue ? Number.NaN : rawG * eg.scale_factor + eg.add_offset;
        const cls = windClass(rawU * eu.scale_factor + eu.add_offset, gust);
        for (let k = 2; k <= cls; k++) atLeast[i * 4 + k - 2]++;
      }
    }
    for (let i = 0; i < n; i++) {
      if (valid[i] === 0) continue;
      for (let k = 0; k < 4; k++) sums.wind[displays[i] * 4 + k] += atLeast[i * 4 + k] / valid[i];
      sums.windCells[displays[i]]++;
    }
  }

  if (has('utci')) {
    const data = await read('utci');
    const { scale_factor: s, add_offset: o, _FillValue: fill } = reader.encoding('utci');
    const sum = new Float64Array(n);
    const count = new Uint32Array(n);
    for (let t = 0; t < hours; t++) {
      if (calendar.season[t] !== SUMMER || calendar.isDay[t] !== 1) continue;
      const base = t * plane;
      for (let i = 0; i < n; i++) {
        const raw = data[base + at[i]];
        if (raw === fill) continue;
        sum[i] += raw * s + o;
        count[i]++;
      }
    }
    for (let i = 0; i < n; i++) {
      if (count[i] === 0) continue;
      sums.utci[displays[i]] += sum[i] / count[i];
      sums.utciCells[displays[i]]++;
    }
  }
}

/** The two wind layers from the summed exceedance shares. */
function windLayers(sums: DisplaySums): Pick<SurroundingsLayers, 'wind_class' | 'wind_danger'> {
  const places = Array.from(sums.windCells, (cells, i) =>
    cells === 0 ? null : placeWindClasses(Array.from(sums.wind.subarray(i * 4, i * 4 + 4), (s) => s / cells)));
  return {
    wind_class: places.map((p) => (p === null ? null : p.comfort)),
    wind_danger: places.map((p) => (p === null ? null : p.danger ? 1 : 0)),
  };
}

/** The cells whose outdoor flags the surroundings read: the window's, and every cell of the chunks it touches. */
function surroundingsReach(grid: GridGeometry, chunk: ChunkShape, window: SurroundingsWindow): GridRect {
  let rect = clipRect(grid, { row0: window.row0, row1: window.row0 + window.side, col0: window.col0, col1: window.col0 + window.side });
  for (const { chunkRow, chunkCol } of window.chunks) {
    rect = unionRect(rect, chunksRect(grid, chunk, chunkRow, chunkRow + 1, chunkCol, chunkCol + 1));
  }
  return rect;
}

/** What each display cell covers, from the grid extent and the outdoor mask. */
function coverOf(grid: GridGeometry, outdoor: OutdoorWindow, window: SurroundingsWindow): SurroundingsCover[] {
  const cover = new Array<SurroundingsCover>(window.cells * window.cells).fill(0);
  for (let r = 0; r < window.side; r++) {
    const row = window.row0 + r;
    if (row < 0 || row >= grid.ny) continue;
    for (let c = 0; c < window.side; c++) {
      const col = window.col0 + c;
      if (col < 0 || col >= grid.nx) continue;
      const display = displayIndexOf(window, row, col);
      const here: SurroundingsCover = outdoor.at(row * grid.nx + col) === 1 ? 2 : 1;
      if (here > cover[display]) cover[display] = here;
    }
  }
  return cover;
}

/** The surroundings grid of `request` in `ds`: same sample as its statistics, same dataset. */
export async function computeSurroundings(
  ds: ComputeDataset, request: StatsRequest, limits: WindowLimits = WINDOW_LIMITS,
): Promise<SurroundingsGrid> {
  const { grid, chunk } = ds.reader;
  const [x, y] = wgs84ToLambert72(request.lon, request.lat);
  const rule = { radius_m: request.radius_m, nationwide: ds.nationwide };
  const sample = sampleCells(grid, await ds.outdoor.window(sampleReach(grid, x, y, rule)), x, y, rule);
  const window = planSurroundingsWindow(grid, chunk, x, y, ds.nationwide, limits);
  const outdoor = await ds.outdoor.window(surroundingsReach(grid, chunk, window));
  const size = window.cells * window.cells;
  const sums: DisplaySums = {
    no2: new Float64Array(size), no2Cells: new Uint32Array(size),
    wind: new Float64Array(size * 4), windCells: new Uint32Array(size),
    utci: new Float64Array(size), utciCells: new Uint32Array(size),
  };
  for (const { chunkRow, chunkCol } of window.chunks) await addChunk(ds, outdoor, window, chunkRow, chunkCol, sums);

  const fields = ds.reader.fields;
  const mean = (total: Float64Array, cells: Uint32Array) =>
    Array.from(total, (v, i) => (cells[i] === 0 ? null : roundHalfUp(v / cells[i], 1)));
  const layers: SurroundingsLayers = {
    ...(fields.includes('no2') ? { no2_mean_ugm3: mean(sums.no2, sums.no2Cells) } : {}),
    ...(fields.includes('ucomfort') ? windLayers(sums) : {}),
    ...(fields.includes('utci') ? { summer_day_utci_c: mean(sums.utci, sums.utciCells) } : {}),
  };

  const res = grid.resolution_m;
  const cellM = res * window.factor;
  const xMin = grid.x0 - res / 2 + window.col0 * res;
  const yMax = grid.y0 + res / 2 - window.row0 * res;
  const sampled = new Set<number>();
  for (const flat of sample.cells) {
    const index = displayIndexOf(window, Math.floor(flat / grid.nx), flat % grid.nx);
    if (index >= 0) sampled.add(index);
  }
  return {
    dataset: ds.id,
    content_version: ds.version,
    attribution: ds.reader.attrs.attribution,
    kind: window.kind,
    resolution_m: res,
    cell_m: cellM,
    factor: window.factor,
    cells: window.cells,
    x_min: xMin,
    y_max: yMax,
    location: { x: (x - xMin) / cellM, y: (yMax - y) / cellM },
    cover: coverOf(grid, outdoor, window),
    sampled: [...sampled].sort((a, b) => a - b),
    sampling: sample.sampling,
    ...(sample.radius_m !== undefined ? { radius_m: sample.radius_m } : {}),
    layers,
    chunks_read: window.chunks.length,
  };
}
