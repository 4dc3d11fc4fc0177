/**
 * Features of the timed layers (thermal, wind, air): one quad per published block of grid cells, carrying the layer's
 * fields. At `maxzoom` a block is one cell; below, a block of 2^k × 2^k cells (aligned to the grid's north-west
 * corner, cut at its edges) publishes each field as the mean of its cells that have a value (a coded field, such as
 * the annual layers' limiting pollutant, as its most frequent value, the lowest on a tie). A field with no value in
 * the block is left out of the feature; a block with no field at all (building interiors, missing data) has no
 * feature. Along a row of blocks, neighbours whose published values are all equal become one quad.
 */
import type { MvtLayer } from './mvt-encoder.js';
import { ringArea2 } from './mvt-encoder.js';
import { blockCorner, overlapsTile, roundAway, type TileFrame } from './tile-frame.js';

/** One field's grid slice: row-major ny × nx values, NaN where missing. */
export interface FieldSlice {
  readonly name: string;
  readonly decimals: number;
  readonly values: Float32Array;
  /** How a block of cells publishes it (default: the mean). */
  readonly aggregate?: 'mean' | 'mode' | undefined;
  /**
   * The first grid row `values` holds (default 0): a band of rows row0 … row0 + values.length / nx − 1, which must
   * hold every row the tile's blocks cover (tile-frame.ts `frameRows`).
   */
  readonly row0?: number;
  /**
   * The first grid column `values` holds (default 0) and how many columns a row of `values` holds (default the
   * grid's nx): a window of the grid, which must hold every column the tile's blocks cover (tile-frame.ts
   * `frameWindow`).
   */
  readonly col0?: number;
  readonly width?: number;
}

/**
 * The most frequent value of the block's cells with a value (the lowest on a tie); NaN when none has one. Rows and
 * columns are those of `values` (`width` values a row).
 */
function blockMode(values: Float32Array, width: number, r0: number, r1: number, c0: number, c1: number): number {
  const counts = new Map<number, number>();
  for (let r = r0; r < r1; r++) {
    for (let c = c0; c < c1; c++) {
      const v = values[r * width + c];
      if (v === v) counts.set(v, (counts.get(v) ?? 0) + 1);
    }
  }
  let best = Number.NaN;
  let most = 0;
  for (const [v, n] of counts) if (n > most || (n === most && v < best)) [best, most] = [v, n];
  return best;
}

/**
 * The published value of `field` in every block of the frame's window, NaN where no cell of the block has one:
 * block (i, j) at (i − r0) · (c1 − c0) + j − c0. Fields are independent, so a tile's tables can be made one field at
 * a time from bands of rows (the atlas archive), and the features built from them are the same as from whole grids.
 */
export function blockTable(frame: Pick<TileFrame, 'grid' | 'block' | 'blocks'>, field: FieldSlice): Float64Array {
  const { grid, block } = frame;
  const { r0, r1, c0, c1 } = frame.blocks;
  const w = Math.max(0, c1 - c0);
  const table = new Float64Array(w * Math.max(0, r1 - r0));
  const { values } = field;
  const row0 = field.row0 ?? 0;
  const col0 = field.col0 ?? 0;
  const width = field.width ?? grid.nx;
  const scale = 10 ** field.decimals;
  for (let i = r0; i < r1; i++) {
    const rEnd = Math.min(grid.ny, (i + 1) * block);
    for (let j = c0; j < c1; j++) {
      const cEnd = Math.min(grid.nx, (j + 1) * block);
      let published: number;
      if (field.aggregate === 'mode') {
        const mode = blockMode(values, width, i * block - row0, rEnd - row0, j * block - col0, cEnd - col0);
        published = Number.isNaN(mode) ? mode : roundAway(mode, scale);
      } else {
        let sum = 0;
        let count = 0;
        for (let r = i * block; r < rEnd; r++) {
          const row = (r - row0) * width - col0;
          for (let c = j * block; c < cEnd; c++) {
            const v = values[row + c];
            if (v === v) {
              sum += v;
              count++;
            }
          }
        }
        published = count > 0 ? roundAway(sum / count, scale) : Number.NaN;
      }
      table[(i - r0) * w + j - c0] = published;
    }
  }
  return table;
}

function sameValues(a: readonly number[], b: readonly number[]): boolean {
  for (let k = 0; k < a.length; k++) if (!(a[k] === b[k] || (Number.isNaN(a[k]) && Number.isNaN(b[k])))) return false;
  return true;
}

/** Adds the quad of blocks (i, j0 … j1) with `values` to `layer` when it overlaps the tile. */
function addRun(layer: MvtLayer, frame: TileFrame, i: number, j0: number, j1: number, values: readonly number[]): void {
  const ring: number[] = [];
  blockCorner(frame, i, j0, ring);
  blockCorner(frame, i, j1 + 1, ring);
  blockCorner(frame, i + 1, j1 + 1, ring);
  blockCorner(frame, i + 1, j0, ring);
  if (overlapsTile(ring) && ringArea2(ring) > 0) layer.addPolygon([ring], values);
}

/** Adds the features of the blocks whose published values are `tables` (blockTable, one per key of `layer`). */
export function addTableFeatures(layer: MvtLayer, frame: TileFrame, tables: readonly Float64Array[]): void {
  const { r0, r1, c0, c1 } = frame.blocks;
  const w = Math.max(0, c1 - c0);
  for (let i = r0; i < r1; i++) {
    let run: number[] | undefined;
    let start = c0;
    for (let j = c0; j < c1; j++) {
      const values = tables.map((t) => t[(i - r0) * w + j - c0]!);
      const has = values.some((v) => !Number.isNaN(v));
      if (run !== undefined && has && sameValues(run, values)) continue;
      if (run !== undefined) addRun(layer, frame, i, start, j - 1, run);
      run = has ? values : undefined;
      start = j;
    }
    if (run !== undefined) addRun(layer, frame, i, start, c1 - 1, run);
  }
}
