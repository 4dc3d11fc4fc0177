/**
 * Hourly grid slices of a whole dataset (for map tiles): one field at one hour for every cell, perturbed exactly as
 * point records are (same seed, noise and lead), NaN for building interiors and missing values.
 *
 * A slice needs one plane out of every chunk of the field, and each chunk holds the whole year, so slices are built
 * in batches: one pass over the chunks extracts every hour the current timeline needs (the live window and the
 * forecast), and the raw planes are kept in an LRU bounded by bytes. The pass reads chunks straight from the reader
 * rather than through the chunk cache, which a city-wide scan would otherwise flush.
 */
import type { HourlyField } from '../store/dataset-types.js';
import { ByteLru, type LruStats } from '../util/byte-lru.js';
import { typedArrayBytes } from '../util/heap-size.js';
import { noiseAt, FIELD_GROUP, perturbValue } from './perturbation.js';
import type { ServedDataset } from './served-dataset.js';
import { HOUR_MS, type Step } from './timeline.js';

/** Raw (int16) planes of hours, cached per (dataset, field, reference hour). */
export class SliceStore {
  readonly #lru: ByteLru<Int16Array>;
  readonly #building = new Map<string, Promise<Int16Array>>();
  readonly #seed: number;

  constructor(budgetBytes: number, seed: number) {
    this.#lru = new ByteLru<Int16Array>(budgetBytes, typedArrayBytes);
    this.#seed = seed;
  }

  #key(dataset: ServedDataset, field: HourlyField, hour: number): string {
    return `${dataset.id}|${dataset.reader.attrs.content_version}|${field}|${hour}`;
  }

  /** Raw plane of `hour`; on a miss, builds it together with the other `batch` hours not cached yet. */
  async rawPlane(dataset: ServedDataset, field: HourlyField, hour: number, batch: readonly number[]): Promise<Int16Array> {
    const key = this.#key(dataset, field, hour);
    const cached = this.#lru.get(key);
    if (cached !== undefined) return cached;
    const running = this.#building.get(key);
    if (running !== undefined) return running;
    const wanted = [...new Set([hour, ...batch])].filter((h) => {
      const k = this.#key(dataset, field, h);
      return this.#lru.get(k) === undefined && !this.#building.has(k);
    });
    const pass = this.#extract(dataset, field, wanted);
    wanted.forEach((h, i) => {
      const k = this.#key(dataset, field, h);
      const plane = pass.then((planes) => {
        this.#lru.set(k, planes[i]);
        return planes[i];
      });
      plane.catch(() => undefined); // batch members nobody awaits must not raise unhandled rejections
      this.#building.set(k, plane.finally(() => this.#building.delete(k)));
    });
    return this.#building.get(key)!;
  }

  /** One pass over every chunk of `field`, copying out the planes of `hours`. */
  async #extract(dataset: ServedDataset, field: HourlyField, hours: readonly number[]): Promise<Int16Array[]> {
    const { grid, chunk } = dataset.reader;
    const fill = dataset.reader.encoding(field)._FillValue;
    const planes = hours.map(() => new Int16Array(grid.nx * grid.ny).fill(fill));
    const plane = chunk.rows * chunk.cols;
    for (let cr = 0; cr * chunk.rows < grid.ny; cr++) {
      for (let cc = 0; cc * chunk.cols < grid.nx; cc++) {
        const data = await dataset.reader.readChunk(field, cr, cc);
        const rows = Math.min(chunk.rows, grid.ny - cr * chunk.rows);
        const cols = Math.min(chunk.cols, grid.nx - cc * chunk.cols);
        hours.forEach((h, i) => {
          const out = planes[i];
          for (let r = 0; r < rows; r++) {
            const src = h * plane + r * chunk.cols;
            out.set(data.subarray(src, src + cols), (cr * chunk.rows + r) * grid.nx + cc * chunk.cols);
          }
        });
      }
    }
    return planes;
  }

  /** The physical, perturbed slice of `field` for `step`; `batch` lists reference hours worth building alongside. */
  async slice(dataset: ServedDataset, field: HourlyField, step: Step, batch: readonly number[]): Promise<Float32Array> {
    const hour = dataset.calendar.hourIndex(step.targetMs);
    const raw = await this.rawPlane(dataset, field, hour, batch);
    const { scale_factor: scale, add_offset: offset, _FillValue: fill } = dataset.reader.encoding(field);
    const { xs, ys } = dataset.centres();
    const key = { seed: this.#seed, dataset: dataset.idHash, group: FIELD_GROUP[field], epochHour: Math.floor(step.targetMs / HOUR_MS), leadH: step.leadH };
    const z = noiseAt(key, xs, ys, new Float32Array(raw.length));
    const out = new Float32Array(raw.length);
    for (let i = 0; i < raw.length; i++) {
      const v = raw[i];
      out[i] = v === fill || dataset.outdoor[i] !== 1 ? Number.NaN : perturbValue(field, v * scale + offset, z[i], step.leadH);
    }
    return out;
  }

  /** Occupancy and hit counters of the plane cache. */
  stats(): LruStats {
    return this.#lru.stats();
  }
}
