/**
 * The model service's HTTP contract, imported by both sides: the stand-in server (src/model-service/server.ts) and the API's client
 * (model-service-client.ts). The prose version, with examples, is docs/model-service.md; keep the two in step.
 *
 *   GET /health                                     → ModelHealth
 *   GET /datasets                                   → { datasets: DatasetInfo[] }
 *   GET /datasets/{id}                              → DatasetInfo
 *   GET /datasets/{id}/timesteps                    → Timesteps
 *   GET /datasets/{id}/live?lat&lon[&radius][&hours] → RecordsResponse (the last `hours` live hours, oldest first)
 *   GET /datasets/{id}/forecast?lat&lon[&radius]    → RecordsResponse (hourly to +24 h, then 3-hourly to +48 h)
 *   GET /datasets/{id}/slices/{timestamp_ms}/{field} → float32 little-endian grid, row-major ny × nx, NaN = no data
 *   GET /datasets/{id}/static/{name}                → a static array (`STATIC_ARRAY_DTYPES`), row-major ny × nx
 *
 * Errors answer `{code, status, detail}` with the status of `MODEL_ERROR_STATUS`.
 */
import type { DamagedDatasetSummary } from '../store/damage-registry.js';
import type { HourlyField, StaticArray } from '../store/dataset-types.js';
import type { DatasetProvenance } from '../store/provenance.js';

/** `service` of the health answer. */
export const MODEL_SERVICE_NAME = 'svc-model-service';

/** Hours of live history returned by default (and the most a client may ask for). */
export const DEFAULT_LIVE_HOURS = 24;
export const MAX_LIVE_HOURS = 168;

/**
 * One hourly record. The named fields are always present (null where the dataset has no data for them); the model may
 * add further fields at any time (`lead_h`, `reference_hour` today), and clients must keep what they do not know.
 */
export interface HourlyRecord {
  /** Start of the hour, ISO 8601 UTC (`2025-06-01T14:00:00Z`). */
  readonly hour: string;
  /** The same instant, epoch milliseconds, as a decimal string. */
  readonly timestamp: string;
  /** NO2, µg/m3. */
  readonly c: number | null;
  readonly c_pm25: number | null;
  readonly c_pm10: number | null;
  /** Ozone, µg/m3, synthesised from an oxidant budget (docs/model-service.md). */
  readonly c_o3: number | null;
  /** m/s. */
  readonly ucomfort: number | null;
  readonly ugust: number | null;
  /** Degrees C. */
  readonly utci: number | null;
  readonly [extra: string]: unknown;
}

/** How the cells behind a record were chosen (same rules and names as the historical statistics). */
export type ModelSampling = 'point' | 'nearest_outdoor' | 'radius';

/** The answer of `/live` and `/forecast`. */
export interface RecordsResponse {
  readonly dataset: string;
  readonly resolution_m: number;
  readonly sampling: ModelSampling;
  readonly n_cells: number;
  /** Present for radius sampling. */
  readonly radius_m?: number;
  /** Present for nearest-outdoor sampling. */
  readonly distance_m?: number;
  /** The live hour the answer was made at (ISO 8601 UTC): the last live record, or the forecast's issue hour. */
  readonly issued: string;
  readonly records: readonly HourlyRecord[];
}

/** One timestep the service can produce now. */
export interface Timestep {
  readonly hour: string;
  readonly timestamp_ms: number;
  /** Hours after the live hour; 0 for the live hour itself. */
  readonly lead_h: number;
}

/** The answer of `/timesteps`: what the map catalog lists. */
export interface Timesteps {
  readonly dataset: string;
  readonly live: Timestep;
  readonly forecast: readonly Timestep[];
}

/** The answer of `/datasets/{id}`. */
export interface DatasetInfo {
  readonly dataset: string;
  readonly title: string;
  readonly resolution_m: number;
  readonly reference_year: number;
  readonly timezone: string;
  readonly content_version: string;
  readonly fields: readonly HourlyField[];
  /**
   * What made the data, from the dataset's attributes (store/provenance.ts); `label` is the sentence shown with the
   * data. Optional: a model service that sends none leaves the map's attribution to the city's.
   */
  readonly provenance?: DatasetProvenance;
  /** The grid of slices: EPSG:31370, cell (row, col) centred at (x0 + col·res, y0 − row·res); row 0 is north. */
  readonly grid: {
    readonly crs_epsg: number;
    readonly nx: number;
    readonly ny: number;
    readonly x0: number;
    readonly y0: number;
    readonly resolution_m: number;
  };
}

/**
 * Element type of each static array on the wire: `outdoor` one byte per cell (1 = outdoor, 0 = building interior),
 * `building_height` float32 little-endian metres (0 outdoors). Answers carry `X-Array-Dtype`, `X-Grid-Nx`, `X-Grid-Ny`.
 */
export const STATIC_ARRAY_DTYPES: Readonly<Record<StaticArray, 'uint8' | 'float32'>> = Object.freeze({
  outdoor: 'uint8',
  building_height: 'float32',
});

/** The answer of `/health`. */
export interface ModelHealth {
  readonly service: typeof MODEL_SERVICE_NAME;
  readonly status: 'ok';
  readonly datasets: readonly string[];
  readonly time: string;
  /** Datasets found damaged (not served, or some chunks damaged); empty when all is well. */
  readonly damaged: readonly DamagedDatasetSummary[];
}

/**
 * Error codes of the model service and their statuses. `dataset_damaged` is 409, not 5xx: it is a definitive answer
 * about one dataset's stored data, which a retry cannot change and which must not trip the client's circuit breaker
 * (shared by every dataset).
 */
export const MODEL_ERROR_STATUS = Object.freeze({
  validation_error: 400,
  not_found: 404,
  method_not_allowed: 405,
  dataset_damaged: 409,
  outside_coverage: 422,
  internal_error: 500,
} as const);

/** A code of `MODEL_ERROR_STATUS`. */
export type ModelErrorCode = keyof typeof MODEL_ERROR_STATUS;

/** Every error body. */
export interface ModelErrorBody {
  readonly code: ModelErrorCode;
  readonly status: number;
  readonly detail: string;
}
