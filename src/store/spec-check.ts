/**
 * Validation of dataset attributes and specs. The writer rejects a bad spec with `ValidationError`; the reader rejects
 * bad stored metadata with `DatasetError`; both go through the same checks, parameterised by the error to raise.
 */
import { DatasetError, ServiceError, ValidationError } from '../errors.js';
import { DATASET_CRS_EPSG } from './crs.js';
import { HOURLY_FIELDS, type DatasetAttrs, type DatasetSpec, type HourlyField } from './dataset-types.js';
import { checkProvenanceAttrs } from './provenance.js';

/** Builds the error to throw for a failed check. */
export type Fail = (detail: string) => ServiceError;

/** Fail with `ValidationError` (caller input). */
export const failValidation: Fail = (detail) => new ValidationError(detail);

/** Largest chunk accepted, in bytes: keeps one decoded chunk well inside a Node Buffer and a worker's memory. */
const MAX_CHUNK_BYTES = 512 * 1024 * 1024;

/** Hours in a calendar year (8760, or 8784 in a leap year). */
function hoursInYear(year: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return leap ? 8784 : 8760;
}

function str(obj: Record<string, unknown>, key: string, fail: Fail, where: string): string {
  const value = obj[key];
  if (typeof value !== 'string' || value.length === 0) throw fail(`${where}: '${key}' must be a non-empty string.`);
  return value;
}

function num(obj: Record<string, unknown>, key: string, fail: Fail, where: string, integer = false): number {
  const value = obj[key];
  if (typeof value !== 'number' || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw fail(`${where}: '${key}' must be a finite ${integer ? 'integer' : 'number'}.`);
  }
  return value;
}

/** Checks that `epsg` is the dataset CRS, with the message the import and reader paths share. */
export function checkCrs(epsg: number, fail: Fail, what: string): void {
  if (epsg !== DATASET_CRS_EPSG) {
    throw fail(`${what} CRS EPSG:${epsg} does not match dataset CRS EPSG:${DATASET_CRS_EPSG}.`);
  }
}

/** Validates group attributes (without or with `Conventions`) and returns them with fields in canonical order. */
export function checkAttrs(value: unknown, fail: Fail): Omit<DatasetAttrs, 'Conventions'> {
  const where = 'dataset attributes';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail(`${where} must be an object.`);
  const obj = value as Record<string, unknown>;
  const dataset = str(obj, 'dataset', fail, where);
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(dataset)) throw fail(`${where}: dataset id '${dataset}' must be lower-case [a-z0-9_-].`);
  const crs_epsg = num(obj, 'crs_epsg', fail, where, true);
  checkCrs(crs_epsg, fail, 'Dataset');
  const resolution_m = num(obj, 'resolution_m', fail, where);
  if (resolution_m <= 0) throw fail(`${where}: resolution_m must be positive.`);
  const reference_year = num(obj, 'reference_year', fail, where, true);
  if (reference_year < 1900 || reference_year > 2200) throw fail(`${where}: reference_year ${reference_year} is out of range.`);
  const timezone = str(obj, 'timezone', fail, where);
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    throw fail(`${where}: timezone '${timezone}' is not an IANA time zone.`);
  }
  const rawFields = obj.fields;
  if (!Array.isArray(rawFields) || rawFields.length === 0) throw fail(`${where}: 'fields' must be a non-empty array.`);
  for (const f of rawFields) {
    if (!(HOURLY_FIELDS as readonly unknown[]).includes(f)) throw fail(`${where}: unknown hourly field '${String(f)}'.`);
  }
  if (new Set(rawFields).size !== rawFields.length) throw fail(`${where}: 'fields' lists a field twice.`);
  const fields = HOURLY_FIELDS.filter((f) => rawFields.includes(f)) as HourlyField[];
  return {
    dataset,
    title: str(obj, 'title', fail, where),
    crs_epsg,
    crs_proj4: str(obj, 'crs_proj4', fail, where),
    resolution_m,
    reference_year,
    timezone,
    generated_utc: str(obj, 'generated_utc', fail, where),
    content_version: str(obj, 'content_version', fail, where),
    fields,
    attribution: str(obj, 'attribution', fail, where),
    ...checkProvenanceAttrs(obj, fail, where),
  };
}

/** Validates a spec for writing; returns a copy with attributes normalised (canonical field order). */
export function checkSpec(spec: DatasetSpec): DatasetSpec {
  const fail = failValidation;
  const attrs = checkAttrs(spec.attrs, fail);
  const g = spec.grid as unknown as Record<string, unknown>;
  if (typeof g !== 'object' || g === null) throw fail('spec.grid must be an object.');
  checkCrs(num(g, 'crs_epsg', fail, 'grid', true), fail, 'Grid');
  for (const key of ['nx', 'ny'] as const) {
    if (num(g, key, fail, 'grid', true) < 1) throw fail(`grid: ${key} must be at least 1.`);
  }
  num(g, 'x0', fail, 'grid');
  num(g, 'y0', fail, 'grid');
  if (num(g, 'resolution_m', fail, 'grid') !== attrs.resolution_m) {
    throw fail(`grid.resolution_m ${spec.grid.resolution_m} differs from attrs.resolution_m ${attrs.resolution_m}.`);
  }
  const maxHours = hoursInYear(attrs.reference_year);
  if (!Number.isInteger(spec.hours) || spec.hours < 1 || spec.hours > maxHours) {
    throw fail(`spec.hours must be an integer in 1..${maxHours} for ${attrs.reference_year} (got ${spec.hours}).`);
  }
  const c = spec.chunk as unknown as Record<string, unknown>;
  for (const key of ['hours', 'rows', 'cols'] as const) {
    if (num(c, key, fail, 'chunk', true) < 1) throw fail(`chunk.${key} must be at least 1.`);
  }
  if (spec.chunk.hours !== spec.hours) {
    throw fail(`chunk.hours (${spec.chunk.hours}) must equal spec.hours (${spec.hours}): a chunk holds the whole year.`);
  }
  if (spec.chunk.hours * spec.chunk.rows * spec.chunk.cols * 2 > MAX_CHUNK_BYTES) {
    throw fail(`chunk ${spec.chunk.hours}x${spec.chunk.rows}x${spec.chunk.cols} exceeds ${MAX_CHUNK_BYTES} bytes.`);
  }
  return {
    attrs,
    grid: { ...spec.grid },
    hours: spec.hours,
    chunk: { ...spec.chunk },
  };
}
