/**
 * The stand-in for the city model's live feed, without HTTP (server.ts puts it on the wire). It replays each
 * dataset's reference year at the current local hour-of-year (reference-calendar.ts) with deterministic perturbation,
 * turns its live hour over a few minutes past each hour and issues forecasts hourly to +24 h, then 3-hourly to +48 h
 * (timeline.ts). Failures are typed `ServiceError`s (validation, not found, outside coverage).
 */
import { NATIONWIDE } from '../cities/catalog.js';
import { DamagedDataError, NotFoundError, ValidationError } from '../errors.js';
import { wgs84ToLambert72 } from '../geo/crs.js';
import { roundCoord } from '../geo/round.js';
import { cellCentre } from '../sampling/grid-cells.js';
import { OutdoorWindow } from '../sampling/outdoor-window.js';
import { sampleCells } from '../sampling/sampling.js';
import { DamageRegistry } from '../store/damage-registry.js';
import { STATIC_ARRAYS, type DatasetReader, type HourlyField, type StaticArray } from '../store/dataset-types.js';
import { provenanceOf } from '../store/provenance.js';
import {
  DEFAULT_LIVE_HOURS, MAX_LIVE_HOURS, MODEL_SERVICE_NAME,
  type DatasetInfo, type ModelHealth, type RecordsResponse, type Timesteps,
} from '../upstream/model-service-contract.js';
import { replayRecords, type SampledCells } from './replay.js';
import { ChunkCache, serveDataset, type ServedDataset } from './served-dataset.js';
import { SliceStore } from './slices.js';
import { forecastSteps, isoHour, liveHourMs, liveSteps, sliceStep, type Step } from './timeline.js';

/** Options of `createModelService`. */
export interface ModelServiceOptions {
  readonly datasets: readonly DatasetReader[];
  /** Datasets found damaged when opening: not served; requests for them answer their error. */
  readonly damaged?: readonly DamagedDataError[];
  /** Where damage found while serving is recorded and logged once (shared with the API when embedded). */
  readonly damage?: DamageRegistry | undefined;
  /** Seed of the perturbation; the same seed, data and clock give the same feed. */
  readonly seed: number;
  /** The time, epoch ms (`Date.now` by default); tests pin it. */
  readonly now?: () => number;
  /** Budget of the decoded-chunk cache, bytes (default 256 MiB). */
  readonly chunkCacheBytes?: number | undefined;
  /** Budget of the hourly slice cache, bytes (default 64 MiB). */
  readonly sliceCacheBytes?: number | undefined;
}

/** Location parameters of a records request. */
export interface RecordsParams {
  readonly lat: number;
  readonly lon: number;
  /** Metres (5 to 50); omitted means the cell at the point, or the nearest outdoor cells. */
  readonly radius?: number;
  /** Live history length, 1 … MAX_LIVE_HOURS (live only; default DEFAULT_LIVE_HOURS). */
  readonly hours?: number;
}

/** Past hours a slice may be asked for, besides the live hour and the forecast. */
const SLICE_HISTORY_H = MAX_LIVE_HOURS;

/** The model service core. */
export class ModelService {
  /** Damage found in the datasets (at start and while serving), logged once per problem. */
  readonly damage: DamageRegistry;
  readonly #datasets: ReadonlyMap<string, ServedDataset>;
  readonly #damaged: ReadonlyMap<string, DamagedDataError>;
  readonly #seed: number;
  readonly #now: () => number;
  readonly #chunks: ChunkCache;
  readonly #slices: SliceStore;

  constructor(datasets: ReadonlyMap<string, ServedDataset>, options: ModelServiceOptions) {
    this.#datasets = datasets;
    this.damage = options.damage ?? new DamageRegistry({ now: options.now });
    this.#damaged = new Map((options.damaged ?? []).map((err) => [err.dataset, err]));
    for (const err of this.#damaged.values()) this.damage.report(err);
    this.#seed = options.seed;
    this.#now = options.now ?? Date.now;
    this.#chunks = new ChunkCache(options.chunkCacheBytes ?? 256 * 1024 * 1024);
    this.#slices = new SliceStore(options.sliceCacheBytes ?? 64 * 1024 * 1024, options.seed);
  }

  #dataset(id: string): ServedDataset {
    const found = this.#datasets.get(id);
    if (found !== undefined) return found;
    const damaged = this.#damaged.get(id);
    if (damaged !== undefined) throw damaged;
    throw new NotFoundError(`No dataset '${id}' is served here.`);
  }

  /** Liveness, the served dataset ids and the damaged datasets (not served, or serving with damaged chunks). */
  health(): ModelHealth {
    return {
      service: MODEL_SERVICE_NAME, status: 'ok', datasets: [...this.#datasets.keys()],
      time: new Date(this.#now()).toISOString(), damaged: this.damage.damaged(),
    };
  }

  /** Describes one dataset. */
  info(id: string): DatasetInfo {
    const { reader } = this.#dataset(id);
    const { attrs, grid } = reader;
    return {
      dataset: attrs.dataset, title: attrs.title, resolution_m: attrs.resolution_m, reference_year: attrs.reference_year,
      timezone: attrs.timezone, content_version: attrs.content_version, fields: [...reader.fields],
      provenance: provenanceOf(attrs),
      grid: { crs_epsg: grid.crs_epsg, nx: grid.nx, ny: grid.ny, x0: grid.x0, y0: grid.y0, resolution_m: grid.resolution_m },
    };
  }

  /** Every served dataset, described. */
  list(): DatasetInfo[] {
    return [...this.#datasets.keys()].map((id) => this.info(id));
  }

  /** The live hour and the forecast steps available now. */
  timesteps(id: string): Timesteps {
    this.#dataset(id);
    const now = this.#now();
    const step = (s: Step) => ({ hour: isoHour(s.targetMs), timestamp_ms: s.targetMs, lead_h: s.leadH });
    return { dataset: id, live: step(liveSteps(now, 1)[0]), forecast: forecastSteps(now).map(step) };
  }

  /** The last `hours` live records ending at the live hour, oldest first. */
  async live(id: string, params: RecordsParams): Promise<RecordsResponse> {
    const hours = params.hours ?? DEFAULT_LIVE_HOURS;
    if (!Number.isInteger(hours) || hours < 1 || hours > MAX_LIVE_HOURS) {
      throw new ValidationError(`hours must be a whole number from 1 to ${MAX_LIVE_HOURS}.`);
    }
    return this.#records(id, params, (now) => liveSteps(now, hours));
  }

  /** The forecast issued at the live hour, in time order. */
  async forecast(id: string, params: RecordsParams): Promise<RecordsResponse> {
    return this.#records(id, params, forecastSteps);
  }

  async #records(id: string, params: RecordsParams, steps: (nowMs: number) => Step[]): Promise<RecordsResponse> {
    const dataset = this.#dataset(id);
    const lat = roundCoord(params.lat);
    const lon = roundCoord(params.lon);
    const [x, y] = wgs84ToLambert72(lon, lat);
    const sample = sampleCells(dataset.reader.grid, OutdoorWindow.whole(dataset.reader.grid, dataset.outdoor), x, y, { radius_m: params.radius, nationwide: dataset.nationwide });
    const xs = new Float64Array(sample.cells.length);
    const ys = new Float64Array(sample.cells.length);
    sample.cells.forEach((cell, i) => {
      const row = Math.floor(cell / dataset.reader.grid.nx);
      [xs[i], ys[i]] = cellCentre(dataset.reader.grid, row, cell - row * dataset.reader.grid.nx);
    });
    const where: SampledCells = { cells: sample.cells, xs, ys, lat, lon };
    const now = this.#now();
    const records = await replayRecords(dataset, this.#chunks, this.#seed, where, steps(now));
    return {
      dataset: id,
      resolution_m: dataset.reader.attrs.resolution_m,
      sampling: sample.sampling,
      n_cells: sample.cells.length,
      ...(sample.radius_m !== undefined ? { radius_m: sample.radius_m } : {}),
      ...(sample.distance_m !== undefined ? { distance_m: sample.distance_m } : {}),
      issued: isoHour(liveHourMs(now)),
      records,
    };
  }

  /** The slice of `field` at `timestampMs` (a whole hour from a week back to the end of the current forecast). */
  async slice(id: string, field: string, timestampMs: number): Promise<{ step: Step; values: Float32Array; nx: number; ny: number }> {
    const dataset = this.#dataset(id);
    if (!dataset.reader.fields.includes(field as HourlyField)) {
      throw new NotFoundError(`Dataset '${id}' has no field '${field}' (fields: ${dataset.reader.fields.join(', ')}).`);
    }
    const now = this.#now();
    const step = sliceStep(now, timestampMs, SLICE_HISTORY_H);
    if (step === undefined) {
      throw new NotFoundError(`No slice at ${timestampMs}: slices exist for whole hours from ${SLICE_HISTORY_H} h before the live hour to the end of the forecast.`);
    }
    const batch = [...liveSteps(now, DEFAULT_LIVE_HOURS), ...forecastSteps(now)].map((s) => dataset.calendar.hourIndex(s.targetMs));
    const values = await this.#slices.slice(dataset, field as HourlyField, step, batch);
    return { step, values, nx: dataset.reader.grid.nx, ny: dataset.reader.grid.ny };
  }

  /** The static array `name` of a dataset (`outdoor` or `building_height`), row-major ny × nx. */
  async staticArray(id: string, name: string): Promise<{ name: StaticArray; values: Uint8Array | Float32Array; nx: number; ny: number }> {
    const dataset = this.#dataset(id);
    if (!(STATIC_ARRAYS as readonly string[]).includes(name)) {
      throw new NotFoundError(`Dataset '${id}' has no static array '${name}' (static arrays: ${STATIC_ARRAYS.join(', ')}).`);
    }
    const { nx, ny } = dataset.reader.grid;
    const values = name === 'outdoor' ? dataset.outdoor : await dataset.reader.readStatic('building_height');
    return { name: name as StaticArray, values, nx, ny };
  }

  /** Cache occupancy, for the health answer of the CLI and tests. */
  cacheStats() {
    return { chunks: this.#chunks.stats(), slices: this.#slices.stats() };
  }
}

/**
 * Prepares every reader and builds the service; dataset ids must be unique. A dataset whose outdoor mask is damaged
 * is not served (like one that failed to open); the others are.
 */
export async function createModelService(options: ModelServiceOptions): Promise<ModelService> {
  const served = new Map<string, ServedDataset>();
  const damaged = [...(options.damaged ?? [])];
  for (const reader of options.datasets) {
    const id = reader.attrs.dataset;
    if (served.has(id)) throw new ValidationError(`Dataset '${id}' is given twice.`);
    try {
      served.set(id, await serveDataset(reader, id === NATIONWIDE.dataset));
    } catch (err) {
      if (!(err instanceof DamagedDataError)) throw err;
      damaged.push(err);
    }
  }
  return new ModelService(served, { ...options, damaged });
}
