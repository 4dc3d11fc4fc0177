/**
 * A dataset's outdoor mask as a compute thread (and the planning main thread) holds it: never whole, read from the
 * store a static chunk (512 × 512 cells) at a time as windows are asked for, through a cache of a few decoded chunks
 * that the windows view (a window holds its chunks, so evicting one never changes a window in use).
 * The whole mask is a byte per cell (161 MB for the Brussels-Capital Region at 1 m) and every thread kept its own
 * copy; a query's window is its sample's reach (at most 250 m around the location), a precompute row's its band of
 * rows, an area's its bounding box. A chunk that is missing or does not decode is a `DamagedDataError` of the query
 * that reads it.
 */
import { clipRect, OutdoorWindow, type GridRect } from '../../sampling/outdoor-window.js';
import type { DatasetReader } from '../../store/dataset-types.js';

/**
 * Decoded static chunks kept (256 KiB each at 512 × 512): a query's window touches at most four, a precompute row
 * band the row of chunks across the grid (re-read from the page cache by the next band when the grid is wider).
 */
const CACHED_CHUNKS = 8;

/** What the mask reads of a dataset. */
export type OutdoorSource = Pick<DatasetReader, 'grid' | 'staticChunk' | 'readStaticChunk'>;

/** The outdoor mask of one dataset, read by window. */
export class OutdoorMask {
  readonly #source: OutdoorSource;
  /** Decoded chunks by `row/col`, least recently used first. */
  readonly #chunks = new Map<string, Promise<Uint8Array>>();

  constructor(source: OutdoorSource) {
    this.#source = source;
  }

  /** The mask over `rect` (clipped to the grid): a view of the decoded chunks it overlaps, nothing copied. */
  async window(rect: GridRect): Promise<OutdoorWindow> {
    const { grid, staticChunk: [cr, cc] } = this.#source;
    const r = clipRect(grid, rect);
    if (r.row0 >= r.row1 || r.col0 >= r.col1) return new OutdoorWindow(grid.nx, r, new Uint8Array(0));
    const i0 = Math.floor(r.row0 / cr), i1 = Math.ceil(r.row1 / cr);
    const j0 = Math.floor(r.col0 / cc), j1 = Math.ceil(r.col1 / cc);
    const tiles: Uint8Array[] = [];
    for (let i = i0; i < i1; i++) for (let j = j0; j < j1; j++) tiles.push(await this.#chunk(i, j));
    return new OutdoorWindow(grid.nx, r, { originRow: i0 * cr, originCol: j0 * cc, tileRows: cr, tileCols: cc, across: j1 - j0, tiles });
  }

  /** Decoded static chunk (i, j), from the cache or the store (a failed read is not kept: the next one retries). */
  #chunk(i: number, j: number): Promise<Uint8Array> {
    const key = `${i}/${j}`;
    const cached = this.#chunks.get(key);
    if (cached !== undefined) {
      this.#chunks.delete(key);
      this.#chunks.set(key, cached);
      return cached;
    }
    const reading = this.#source.readStaticChunk('outdoor', i, j);
    reading.catch(() => {
      if (this.#chunks.get(key) === reading) this.#chunks.delete(key);
    });
    this.#chunks.set(key, reading);
    for (const oldest of this.#chunks.keys()) {
      if (this.#chunks.size <= CACHED_CHUNKS) break;
      this.#chunks.delete(oldest);
    }
    return reading;
  }
}
