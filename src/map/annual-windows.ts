/**
 * Windows of the precomputed grids the annual tiles are drawn from: a tile reads the cells its blocks cover
 * (tile-frame.ts `frameWindow`), never a whole grid. The precompute stores each grid in full-width bands of rows
 * (compute/precompute/precompute-publish.ts, store/grid-group-reader.ts); decoded bands are kept in a byte-bounded LRU (the
 * `annualBands` share of the node's memory budget, config/memory-budget.ts), so the tiles of one area decode each
 * band once while memory stays at the budget whatever the city's extent. A window is copied out of its bands into a
 * SharedArrayBuffer of its own, so a job posted to a compute thread holds the window alone: at most a tile's span
 * (web-mercator-tiles.ts `MAX_TILE_SPAN_CELLS`) a side, 4 bytes a cell and figure. The same LRU keeps the published
 * values of blocks that the tiles below the deepest zoom are drawn from (annual-tables.ts).
 */
import type { GridGroup } from '../store/grid-group-reader.js';
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

/** What the cache holds: decoded bands (float32) and bands of block tables (float64, annual-tables.ts). */
type Cached = Float32Array | Float64Array;

/** Decoded bands of precomputed grids and what is derived from them, bounded by bytes together. */
export class AnnualWindows {
  readonly #bands: ByteLru<Cached>;

  /** `budgetBytes`: what the decoded bands and block tables may hold together. */
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
  async read(group: GridGroup, version: string, name: string, range: CellRange): Promise<Float32Array> {
    const { r0, r1, c0, c1 } = range;
    const width = c1 - c0;
    const out = new Float32Array(new SharedArrayBuffer(Math.max(0, (r1 - r0) * width) * 4));
    if (r1 <= r0 || width <= 0) return out;
    const rows = group.bandRows(name);
    const nx = (await this.#band(group, version, name, Math.floor(r0 / rows))).length / rows;
    for (let b = Math.floor(r0 / rows); b * rows < r1; b++) {
      const band = await this.#band(group, version, name, b);
      const from = Math.max(r0, b * rows);
      const to = Math.min(r1, (b + 1) * rows);
      for (let r = from; r < to; r++) {
        const at = (r - b * rows) * nx;
        out.set(band.subarray(at + c0, at + c1), (r - r0) * width);
      }
    }
    return out;
  }

  /** Band `b` of a grid, from the cache or decoded (concurrent reads of one band share one decoding). */
  #band(group: GridGroup, version: string, name: string, b: number): Promise<Float32Array> {
    return this.#bands.load(`${group.dir}|${version}|${name}|${b}`, () => group.readBand(name, b)) as Promise<Float32Array>;
  }

  /** Counters of the band cache. */
  stats(): LruStats {
    return this.#bands.stats();
  }
}
