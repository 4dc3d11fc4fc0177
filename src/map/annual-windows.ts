/**
 * Windows of the precomputed grids the annual tiles are drawn from: a tile reads the cells its blocks cover
 * (tile-frame.ts `frameWindow`), or below the deepest zoom the published values of its blocks from the precompute's
 * overviews (annual-overviews.ts), never a whole grid. The precompute stores each grid and overview in square chunks
 * (services/precompute.ts, store/grid-group-writer.ts); decoded chunks are kept in a byte-bounded
 * LRU (the `annualBands` share of the node's memory budget, config/memory-budget.ts), so the tiles of one area decode
 * each chunk once while memory stays at the budget, and a tile decodes only the chunks it overlaps, whatever the
 * city's extent. Precomputes written before square chunks hold one chunk per band of full-width rows, read the same
 * way. A window is copied out of its chunks into a buffer of its own (a SharedArrayBuffer for cells), so a job posted
 * to a compute thread holds the window alone: at most a tile's span (web-mercator-tiles.ts `MAX_TILE_SPAN_CELLS`) a
 * side, 4 bytes a cell and figure. The same LRU keeps the published values of blocks that the tiles below the deepest
 * zoom are drawn from when a precompute has no overviews (annual-tables.ts).
 */
import type { GridGroup, StoredArray } from '../store/grid-group-reader.js';
import { ByteLru, type LruStats } from '../util/byte-lru.js';
import { typedArrayBytes } from '../util/heap-size.js';

/** The band cache's budget when none is given: the `annualBands` share of the default memory budget (512 MiB). */
export const DEFAULT_ANNUAL_BAND_CACHE_BYTES = 32 * 1024 * 1024;

/** Rows `r0` … `r1` − 1 and columns `c0` … `c1` − 1 of a grid. */
export interface CellRange {
  readonly r0: number;
  readonly r1: number;
  readonly c0: number;
  readonly c1: number;
}

/** What the cache holds: decoded chunks (float32 cells, float64 overviews) and bands of block tables (annual-tables.ts). */
type Cached = Float32Array | Float64Array;

/** Decoded chunks of precomputed grids and overviews, and what is derived from them, bounded by bytes together. */
export class AnnualWindows {
  readonly #bands: ByteLru<Cached>;

  /** `budgetBytes`: what the decoded chunks and block tables may hold together. */
  constructor(budgetBytes: number) {
    this.#bands = new ByteLru<Cached>(budgetBytes, typedArrayBytes);
  }

  /**
   * The block-table band cached under `key` (which must name the group, the precompute's version and everything the
   * values depend on), made by `make` on a miss (concurrent calls share one).
   */
  tableBand(key: string, make: () => Promise<Float64Array>): Promise<Float64Array> {
    return this.#bands.load(`table|${key}`, make) as Promise<Float64Array>;
  }

  /**
   * Cells `range` of grid `name` of `group` (whose precompute is `version`, a key part: a new precompute is read
   * anew), row-major (`range.c1 − range.c0` a row), NaN where there is no value, over a SharedArrayBuffer.
   */
  read(group: GridGroup, version: string, name: string, range: CellRange): Promise<Float32Array> {
    const out = new Float32Array(new SharedArrayBuffer(Math.max(0, (range.r1 - range.r0) * (range.c1 - range.c0)) * 4));
    return this.#window(group.grid(name), `${group.dir}|${version}|${name}`, range, out);
  }

  /**
   * Blocks `range` of the overview at `path` of `group` (annual-overviews.ts), row-major, as `read`; undefined when
   * the group has no such overview.
   */
  async overview(group: GridGroup, version: string, path: string, range: CellRange): Promise<Float64Array | undefined> {
    const array = group.derived(path);
    if (array === undefined) return undefined;
    const out = new Float64Array(Math.max(0, (range.r1 - range.r0) * (range.c1 - range.c0)));
    return this.#window(array, `${group.dir}|${version}|${path}`, range, out);
  }

  /** Copies `range` of `array` into `out` from its chunks, cached under `key` and the chunk's place. */
  async #window<T extends Float32Array | Float64Array>(array: StoredArray<T>, key: string, range: CellRange, out: T): Promise<T> {
    const { r0, r1, c0, c1 } = range;
    const width = c1 - c0;
    if (r1 <= r0 || width <= 0) return out;
    const { chunkRows, chunkCols } = array;
    for (let b = Math.floor(r0 / chunkRows); b * chunkRows < r1; b++) {
      for (let c = Math.floor(c0 / chunkCols); c * chunkCols < c1; c++) {
        const chunk = (await this.#bands.load(`${key}|${b}|${c}`, () => array.readChunk(b, c))) as T;
        const from = Math.max(c0, c * chunkCols);
        const to = Math.min(c1, (c + 1) * chunkCols);
        // Copied value by value: a view per row (`subarray`) would allocate as many objects as the window has rows,
        // garbage that costs the main thread more in collections than the copy itself.
        for (let r = Math.max(r0, b * chunkRows); r < Math.min(r1, (b + 1) * chunkRows); r++) {
          const at = (r - b * chunkRows) * chunkCols - c * chunkCols;
          const dst = (r - r0) * width - c0;
          for (let i = from; i < to; i++) out[dst + i] = chunk[at + i]!;
        }
      }
    }
    return out;
  }

  /** Counters of the band cache. */
  stats(): LruStats {
    return this.#bands.stats();
  }
}
