/**
 * A dataset as the model service serves it: the reader plus what every request needs and is worth computing once
 * (reference calendar, outdoor mask, cell-centre coordinates), and the shared cache of decoded chunks.
 */
import type { DatasetReader, HourlyField } from '../store/dataset-types.js';
import { ByteLru, type LruStats } from '../util/byte-lru.js';
import { typedArrayBytes } from '../util/heap-size.js';
import { datasetHash } from './perturbation.js';
import { ReferenceCalendar } from './reference-calendar.js';

/** An open dataset with its per-dataset constants. */
export interface ServedDataset {
  readonly id: string;
  readonly reader: DatasetReader;
  readonly calendar: ReferenceCalendar;
  /** 1 = outdoor cell, row-major ny × nx. */
  readonly outdoor: Uint8Array;
  /** Nationwide datasets always sample the containing cell (spec rule 5 of the historical product, kept here). */
  readonly nationwide: boolean;
  /** Seed component derived from the id. */
  readonly idHash: number;
  /** Cell-centre coordinates of every cell (grid CRS metres), row-major; built on first use by slices. */
  centres(): { readonly xs: Float64Array; readonly ys: Float64Array };
}

/** Prepares a reader for serving. */
export async function serveDataset(reader: DatasetReader, nationwide: boolean): Promise<ServedDataset> {
  const outdoor = await reader.readStatic('outdoor');
  const calendar = new ReferenceCalendar(reader.attrs.reference_year, reader.hours, reader.attrs.timezone);
  let centres: { xs: Float64Array; ys: Float64Array } | undefined;
  return {
    id: reader.attrs.dataset,
    reader,
    calendar,
    outdoor,
    nationwide,
    idHash: datasetHash(reader.attrs.dataset),
    centres() {
      if (centres === undefined) {
        const { nx, ny, x0, y0, resolution_m: res } = reader.grid;
        const xs = new Float64Array(nx * ny);
        const ys = new Float64Array(nx * ny);
        for (let row = 0; row < ny; row++) {
          for (let col = 0; col < nx; col++) {
            xs[row * nx + col] = x0 + col * res;
            ys[row * nx + col] = y0 - row * res;
          }
        }
        centres = { xs, ys };
      }
      return centres;
    },
  };
}

/**
 * Decoded chunks are whole-year blocks (hours × chunk cells), so reading one hour of a point means decompressing a
 * year; they are kept in an LRU bounded by bytes, shared by every dataset, and concurrent reads of one chunk share
 * one decompression.
 */
export class ChunkCache {
  readonly #lru: ByteLru<Int16Array>;

  constructor(budgetBytes: number) {
    this.#lru = new ByteLru<Int16Array>(budgetBytes, typedArrayBytes);
  }

  /** The raw chunk (hour-major) of `field` at chunk (row, col) of `dataset`. */
  chunk(dataset: ServedDataset, field: HourlyField, chunkRow: number, chunkCol: number): Promise<Int16Array> {
    const key = `${dataset.id}|${dataset.reader.attrs.content_version}|${field}|${chunkRow}|${chunkCol}`;
    return this.#lru.load(key, () => dataset.reader.readChunk(field, chunkRow, chunkCol));
  }

  /** Occupancy and hit counters. */
  stats(): LruStats {
    return this.#lru.stats();
  }
}
