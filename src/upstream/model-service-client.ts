/**
 * The API's side of the model-service contract (model-service-contract.ts), over any `Upstream` (normally the standard stack of
 * src/upstream/upstream-client.ts, which already turned time-outs and dead connections into typed errors).
 *
 * Answers are checked just enough to be safe to pass on: an object with a `records` array whose entries are objects
 * with a string `hour` and a decimal-string `timestamp`. Records themselves are kept verbatim, unknown fields
 * included. A 422 `outside_coverage` (no outdoor cell within the radius) is the request's fault and passes through;
 * a 409 `dataset_damaged` (the dataset's stored data are damaged) becomes a `DamagedDataError`, since a retry cannot
 * help; every other non-2xx answer, and any malformed one, is an `UpstreamError`. Binary grid answers (slices, static
 * arrays, for map tiles) are read by grid-body.ts into shared memory.
 */
import { DamagedDataError, OutsideCoverageError, UpstreamError } from '../errors.js';
import { readJson } from './upstream-client.js';
import type { Upstream, UpstreamResponse } from './upstream-types.js';
import { STATIC_ARRAY_DTYPES, type DatasetInfo, type RecordsResponse, type Timesteps } from './model-service-contract.js';
import { readFloat32Grid, readUint8Grid, type GridArray } from './grid-body.js';
import type { HourlyField } from '../store/dataset-types.js';

/** Location of a records request. */
export interface ModelQuery {
  readonly lat: number;
  readonly lon: number;
  readonly radius?: number;
}

/** Typed calls of the model service. */
export interface ModelServiceClient {
  /** The last 24 live hours ending at the live hour, oldest first. */
  live(dataset: string, query: ModelQuery, signal?: AbortSignal): Promise<RecordsResponse>;
  /** The current forecast, in time order. */
  forecast(dataset: string, query: ModelQuery, signal?: AbortSignal): Promise<RecordsResponse>;
  /** The live hour and forecast steps (for the map catalog). */
  timesteps(dataset: string, signal?: AbortSignal): Promise<Timesteps>;
  /** What a dataset holds and its grid (for map tiles). */
  datasetInfo(dataset: string, signal?: AbortSignal): Promise<DatasetInfo>;
  /** One field at one whole hour for every cell (NaN: no value), in shared memory. */
  slice(dataset: string, timestampMs: number, field: HourlyField, signal?: AbortSignal): Promise<GridArray<Float32Array>>;
  /** The outdoor mask (1 = outdoor) or the building heights, in shared memory. */
  outdoorMask(dataset: string, signal?: AbortSignal): Promise<GridArray<Uint8Array>>;
  buildingHeights(dataset: string, signal?: AbortSignal): Promise<GridArray<Float32Array>>;
}

type Json = unknown;

function isObject(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function malformed(name: string, why: string): UpstreamError {
  return new UpstreamError(`The ${name} answered with malformed data: ${why}.`);
}

/** Throws the error a non-2xx answer stands for; `dataset` is the dataset the request was about. */
function refuse(name: string, response: UpstreamResponse, dataset: string): never {
  if (response.status === 422 || response.status === 409) {
    let body: Json;
    try {
      body = readJson(name, response);
    } catch {
      body = undefined;
    }
    if (isObject(body) && typeof body.detail === 'string') {
      if (response.status === 422 && body.code === 'outside_coverage') throw new OutsideCoverageError(body.detail);
      if (response.status === 409 && body.code === 'dataset_damaged') throw new DamagedDataError(body.detail, { dataset });
    }
  }
  throw new UpstreamError(`The ${name} answered HTTP ${response.status}; retrying is reasonable.`);
}

/** Checks the parts of a records answer the API relies on. */
function checkRecordsResponse(name: string, body: Json): RecordsResponse {
  if (!isObject(body)) throw malformed(name, 'the answer is not an object');
  if (typeof body.dataset !== 'string') throw malformed(name, 'no dataset id');
  if (body.resolution_m !== undefined && !(typeof body.resolution_m === 'number' && body.resolution_m > 0)) {
    throw malformed(name, 'resolution_m is not a positive number');
  }
  if (!Array.isArray(body.records)) throw malformed(name, 'no records array');
  body.records.forEach((record: Json, i: number) => {
    if (!isObject(record)) throw malformed(name, `record ${i} is not an object`);
    if (typeof record.hour !== 'string' || Number.isNaN(Date.parse(record.hour))) throw malformed(name, `record ${i} has no valid hour`);
    if (typeof record.timestamp !== 'string' || !/^-?\d{1,16}$/.test(record.timestamp)) {
      throw malformed(name, `record ${i} has no valid timestamp`);
    }
  });
  return body as unknown as RecordsResponse;
}

/** Checks the parts of a dataset description the map relies on. */
export function checkDatasetInfo(name: string, body: Json): DatasetInfo {
  if (!isObject(body) || typeof body.dataset !== 'string' || typeof body.content_version !== 'string') {
    throw malformed(name, 'no dataset id or content version');
  }
  if (!Array.isArray(body.fields) || !body.fields.every((f) => typeof f === 'string')) throw malformed(name, 'no field list');
  const grid = body.grid;
  const positive = (v: Json) => typeof v === 'number' && Number.isFinite(v) && v > 0;
  const finite = (v: Json) => typeof v === 'number' && Number.isFinite(v);
  if (!isObject(grid) || !positive(grid.resolution_m) || !finite(grid.x0) || !finite(grid.y0) || !Number.isInteger(grid.nx) ||
    !Number.isInteger(grid.ny) || !positive(grid.nx) || !positive(grid.ny) || grid.crs_epsg !== 31370) {
    throw malformed(name, 'no valid EPSG:31370 grid');
  }
  if (body.provenance !== undefined && !(isObject(body.provenance) && typeof body.provenance.label === 'string')) {
    throw malformed(name, 'a provenance without a label');
  }
  return body as unknown as DatasetInfo;
}

/** Builds the client over `upstream`. */
export function createModelServiceClient(upstream: Upstream): ModelServiceClient {
  const name = upstream.name;

  async function fetchOk(dataset: string, path: string, query: Record<string, number | undefined>, signal?: AbortSignal): Promise<UpstreamResponse> {
    const response = await upstream.request({ method: 'GET', path, query }, signal);
    if (response.status < 200 || response.status > 299) refuse(name, response, dataset);
    return response;
  }
  const get = async (dataset: string, path: string, query: Record<string, number | undefined>, signal?: AbortSignal): Promise<Json> =>
    readJson(name, await fetchOk(dataset, path, query, signal));
  const at = (dataset: string) => `/datasets/${encodeURIComponent(dataset)}`;
  const staticArray = async (dataset: string, array: 'outdoor' | 'building_height', signal?: AbortSignal) => {
    const response = await fetchOk(dataset, `${at(dataset)}/static/${array}`, {}, signal);
    if (response.headers['x-array-dtype'] !== STATIC_ARRAY_DTYPES[array]) throw malformed(name, `the ${array} array has another element type`);
    return response;
  };

  const records = async (kind: 'live' | 'forecast', dataset: string, query: ModelQuery, signal?: AbortSignal) => {
    const path = `/datasets/${encodeURIComponent(dataset)}/${kind}`;
    return checkRecordsResponse(name, await get(dataset, path, { lat: query.lat, lon: query.lon, radius: query.radius }, signal));
  };

  return {
    live: (dataset, query, signal) => records('live', dataset, query, signal),
    forecast: (dataset, query, signal) => records('forecast', dataset, query, signal),
    async timesteps(dataset, signal) {
      const body = await get(dataset, `/datasets/${encodeURIComponent(dataset)}/timesteps`, {}, signal);
      if (!isObject(body) || !isObject(body.live) || !Array.isArray(body.forecast)) throw malformed(name, 'no live and forecast timesteps');
      const step = (s: Json) => isObject(s) && Number.isSafeInteger(s.timestamp_ms) && typeof s.hour === 'string' && typeof s.lead_h === 'number';
      if (!step(body.live) || !body.forecast.every(step)) throw malformed(name, 'a timestep without hour, timestamp_ms and lead_h');
      return body as unknown as Timesteps;
    },
    async datasetInfo(dataset, signal) {
      return checkDatasetInfo(name, await get(dataset, at(dataset), {}, signal));
    },
    async slice(dataset, timestampMs, field, signal) {
      return readFloat32Grid(name, await fetchOk(dataset, `${at(dataset)}/slices/${timestampMs}/${encodeURIComponent(field)}`, {}, signal));
    },
    async outdoorMask(dataset, signal) {
      return readUint8Grid(name, await staticArray(dataset, 'outdoor', signal));
    },
    async buildingHeights(dataset, signal) {
      return readFloat32Grid(name, await staticArray(dataset, 'building_height', signal));
    },
  };
}
