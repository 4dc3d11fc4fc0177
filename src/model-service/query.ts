/**
 * Strict parsing of the model service's query parameters: decimal numbers only (no `0x10`, `1e999`, blanks), every
 * parameter at most once, unknown parameters refused, so a client bug surfaces as a 400 instead of a silent default.
 */
import { quoteInput } from '../util/quote-input.js';
import type { RecordsParams } from './model-service.js';

/** A malformed query; the server answers 400 `validation_error` with this message. */
export class QueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryError';
  }
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,3})?$/;

function single(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw new QueryError(`Query parameter '${name}' is given more than once.`);
  return values[0];
}

function decimal(query: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const raw = single(query, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!DECIMAL.test(raw) || !Number.isFinite(value)) throw new QueryError(`Query parameter '${name}' must be a decimal number.`);
  if (value < min || value > max) throw new QueryError(`Query parameter '${name}' must be between ${min} and ${max}.`);
  return value;
}

/** Parses `lat`, `lon`, `radius` (and `hours` when `live`); refuses anything else. */
export function parseRecordsQuery(query: URLSearchParams, live: boolean): RecordsParams {
  const allowed = live ? ['lat', 'lon', 'radius', 'hours'] : ['lat', 'lon', 'radius'];
  for (const name of query.keys()) {
    if (!allowed.includes(name)) throw new QueryError(`Query parameter ${quoteInput(name)} is not accepted (accepted: ${allowed.join(', ')}).`);
  }
  const lat = decimal(query, 'lat', -90, 90);
  const lon = decimal(query, 'lon', -180, 180);
  if (lat === undefined || lon === undefined) throw new QueryError(`Query parameters 'lat' and 'lon' are required.`);
  const radius = decimal(query, 'radius', 5, 50);
  const hoursRaw = live ? single(query, 'hours') : undefined;
  if (hoursRaw !== undefined && !/^\d{1,4}$/.test(hoursRaw)) throw new QueryError(`Query parameter 'hours' must be a whole number.`);
  return {
    lat,
    lon,
    ...(radius !== undefined ? { radius } : {}),
    ...(hoursRaw !== undefined ? { hours: Number(hoursRaw) } : {}),
  };
}

/** Parses the `{timestamp_ms}` path segment of a slice: a whole number of epoch milliseconds. */
export function parseSliceTimestamp(segment: string): number {
  if (!/^\d{1,16}$/.test(segment)) throw new QueryError(`The slice timestamp must be epoch milliseconds, got '${segment}'.`);
  return Number(segment);
}
