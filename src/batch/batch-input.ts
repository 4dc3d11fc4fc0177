/**
 * Reads the locations of a batch (JSON body or CSV table) into checked entries. Two kinds of fault, kept apart:
 *
 * - faults of the request as a whole — not an object, no `locations` list, too many locations, an id missing or
 *   repeated, an unknown `metrics` — are thrown as one `ValidationError` (the whole request is a 400);
 * - faults of one location — a coordinate that is not a finite number or out of range, both an address and
 *   coordinates, a radius out of 5–50 m — become that location's own error, so the others are still answered.
 *
 * Numbers may be JSON numbers or decimal strings (as the rest of the API takes them); NaN, Infinity and hexadecimal
 * are refused for the location that holds them. Nothing here computes or looks anything up.
 */
import { STAT_METRICS, type StatMetric } from '../cities/city-types.js';
import { ValidationError } from '../errors.js';
import { quoteInput } from '../util/quote-input.js';
import { ID_MAX_CHARS } from './batch-limits.js';
import type { CsvTable } from './csv-table.js';

/** One location as asked, checked. */
export interface BatchLocation {
  readonly id: string;
  readonly address?: string;
  readonly lat?: number;
  readonly lon?: number;
  readonly radius?: number;
}

/** A location entry: checked, or refused on its own with the reason. */
export type BatchEntry =
  | { readonly id: string; readonly location: BatchLocation; readonly error?: undefined }
  | { readonly id: string; readonly location?: undefined; readonly error: ValidationError };

/** A whole batch: its entries in the order given and the metrics named for all of them. */
export interface BatchInput {
  readonly entries: readonly BatchEntry[];
  readonly metrics?: readonly StatMetric[];
}

/** What `maxLocations` says when it is exceeded, e.g. a pointer to the asynchronous route. */
export interface CountRule {
  readonly maxLocations: number;
  readonly overAdvice: string;
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const FIELDS = new Set(['id', 'address', 'lat', 'lon', 'radius']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A number field: a finite JSON number or a decimal string; undefined when absent or blank. */
function numberField(value: unknown, name: string, min: number, max: number): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && DECIMAL.test(value.trim())) n = Number(value.trim());
  else throw new ValidationError(`'${name}' must be a decimal number; got ${typeof value === 'string' ? quoteInput(value) : typeof value}.`);
  if (!Number.isFinite(n)) throw new ValidationError(`'${name}' must be a finite number.`);
  if (n < min || n > max) throw new ValidationError(`'${name}' must be between ${min} and ${max}; got ${n}.`);
  return n;
}

/** The id of a location: a string or an integer, 1 to 64 characters; undefined when it has none. */
function idOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const id = value.trim();
  return id.length >= 1 && id.length <= ID_MAX_CHARS ? id : undefined;
}

/** Checks one location's fields (its id already read). */
function checkLocation(id: string, raw: Record<string, unknown>): BatchEntry {
  try {
    for (const name of Object.keys(raw)) {
      if (!FIELDS.has(name)) throw new ValidationError(`Unknown field ${quoteInput(name)}; a location has id, address, lat, lon and radius.`);
    }
    const address = raw.address === undefined || raw.address === null || raw.address === '' ? undefined : raw.address;
    if (address !== undefined && (typeof address !== 'string' || address.length > 200 || /[\u0000-\u001f\u007f-\u009f]/.test(address))) {
      throw new ValidationError(`'address' must be text of at most 200 characters without control characters.`);
    }
    const lat = numberField(raw.lat, 'lat', -90, 90);
    const lon = numberField(raw.lon, 'lon', -180, 180);
    const radius = numberField(raw.radius, 'radius', 5, 50);
    if (address !== undefined && (lat !== undefined || lon !== undefined)) throw new ValidationError('Give either address or lat and lon, not both.');
    if (address === undefined && (lat === undefined || lon === undefined)) {
      throw new ValidationError(lat === undefined && lon === undefined ? 'A location is required: give address, or lat and lon.' : 'Give lat and lon together.');
    }
    if (address !== undefined && address.trim() === '') throw new ValidationError(`'address' must not be blank.`);
    const location: BatchLocation = {
      id,
      ...(address !== undefined ? { address } : { lat: lat!, lon: lon! }),
      ...(radius !== undefined ? { radius } : {}),
    };
    return { id, location };
  } catch (err) {
    if (err instanceof ValidationError) return { id, error: err };
    throw err;
  }
}

/** The metrics parameter (`"air,wind"` or `["air","wind"]`); undefined means every metric the key holds. */
export function readMetrics(value: unknown): StatMetric[] | undefined {
  if (value === undefined || value === null) return undefined;
  const names = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
  if (names === undefined || names.length === 0 || names.length > 3 || !names.every((n) => typeof n === 'string' && (STAT_METRICS as readonly string[]).includes(n))) {
    throw new ValidationError("'metrics' must name a subset of air, wind and thermal.");
  }
  return names as StatMetric[];
}

/** Refuses a batch with no location or more than the rule allows (before any location is read). */
function checkCount(count: number, rule: CountRule): void {
  if (count === 0) throw new ValidationError("'locations' must hold at least one location.");
  if (count > rule.maxLocations) {
    throw new ValidationError(`A batch holds at most ${rule.maxLocations} locations; this one has ${count}. ${rule.overAdvice}`);
  }
}

/** Refuses a batch with an id missing or ids repeated (naming them). */
function checkIds(entries: readonly BatchEntry[], missing: readonly number[]): void {
  if (missing.length > 0) {
    const shown = missing.slice(0, 10).map((i) => `#${i + 1}`).join(', ');
    throw new ValidationError(`Every location needs an 'id' (text of 1 to ${ID_MAX_CHARS} characters, or an integer); missing or malformed at ${shown}${missing.length > 10 ? ', …' : ''}.`);
  }
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const { id } of entries) (seen.has(id) ? repeated : seen).add(id);
  if (repeated.size > 0) {
    const shown = [...repeated].slice(0, 10).map((id) => quoteInput(id, 64)).join(', ');
    throw new ValidationError(`Location ids must be unique; repeated: ${shown}${repeated.size > 10 ? ', …' : ''}.`);
  }
}

/** Reads a JSON body `{ "locations": [...], "metrics"?: ... }`. */
export function readJsonBatch(body: unknown, rule: CountRule): BatchInput {
  if (!isObject(body) || !Array.isArray(body.locations)) throw new ValidationError("The body must be a JSON object with a 'locations' array.");
  for (const name of Object.keys(body)) {
    if (name !== 'locations' && name !== 'metrics') throw new ValidationError(`Unknown field ${quoteInput(name)}; the body has locations and metrics.`);
  }
  const list = body.locations as unknown[];
  checkCount(list.length, rule);
  const metrics = readMetrics(body.metrics);
  const entries: BatchEntry[] = [];
  const missing: number[] = [];
  list.forEach((raw, i) => {
    const id = isObject(raw) ? idOf(raw.id) : undefined;
    if (id === undefined) missing.push(i);
    else entries.push(checkLocation(id, raw as Record<string, unknown>));
  });
  checkIds(entries, missing);
  return { entries, ...(metrics ? { metrics } : {}) };
}

/** Reads a CSV table with columns id and lat, lon or address (radius optional; other columns are refused). */
export function readCsvBatch(table: CsvTable, metrics: readonly StatMetric[] | undefined, rule: CountRule): BatchInput {
  const columns = table.header.map((name) => name.toLowerCase());
  const unknown = columns.filter((c) => !FIELDS.has(c));
  if (unknown.length > 0) throw new ValidationError(`Unknown CSV column ${quoteInput(unknown[0]!)}; the columns are id, lat, lon, address and radius.`);
  if (!columns.includes('id')) throw new ValidationError("The CSV header needs an 'id' column.");
  if (new Set(columns).size !== columns.length) throw new ValidationError('A CSV column is named twice in the header.');
  checkCount(table.rows.length, rule);
  const entries: BatchEntry[] = [];
  const missing: number[] = [];
  table.rows.forEach((row, i) => {
    const raw: Record<string, unknown> = {};
    columns.forEach((c, k) => (raw[c] = row.fields[k]));
    const id = idOf(raw.id);
    if (id === undefined) missing.push(i);
    else entries.push(checkLocation(id, raw));
  });
  checkIds(entries, missing);
  return { entries, ...(metrics ? { metrics } : {}) };
}
