/**
 * Validation of what an operator asks for when issuing or changing a key. Scope lists are `["*"]` or distinct known
 * ids; origins are normalised (src/keys/origins.ts); an expiry given as a date means the end of that UTC day.
 */
import { METRICS, PRODUCTS, type Metric, type Product } from '../cities/city-types.js';
import { ValidationError } from '../errors.js';
import { ANY, type KeyChanges, type KeySpec } from './key-types.js';
import { normalizeOriginEntry } from './origins.js';

const CITY_ID = /^[a-z][a-z0-9-]*$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function scopeList<T extends string>(name: string, values: readonly string[], allowed: (v: string) => boolean): T[] {
  const list = [...new Set(values.map((v) => v.trim()).filter((v) => v !== ''))];
  if (list.length === 0) throw new ValidationError(`${name} must list at least one id, or '*'.`);
  if (list.includes(ANY)) {
    if (list.length > 1) throw new ValidationError(`${name}: '*' cannot be combined with other ids.`);
    return [ANY as T];
  }
  const bad = list.filter((v) => !allowed(v));
  if (bad.length > 0) throw new ValidationError(`${name}: unknown ${bad.map((v) => `'${v}'`).join(', ')}.`);
  return list as T[];
}

function limit(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min || value > 1_000_000) {
    throw new ValidationError(`${name} must be an integer from ${min} to 1000000 (got ${value}).`);
  }
  return value;
}

/** Parses an expiry (`YYYY-MM-DD` = end of that UTC day, or an ISO 8601 instant with zone) to an ISO UTC instant. */
export function parseExpiry(value: string): string {
  const text = value.trim();
  const ms = DATE_ONLY.test(text) ? Date.parse(`${text}T00:00:00Z`) + 86_400_000 : Date.parse(text);
  const zoned = DATE_ONLY.test(text) || /(Z|[+-]\d{2}:?\d{2})$/i.test(text);
  if (!zoned || Number.isNaN(ms)) {
    throw new ValidationError(`expiry '${value}' must be a date (YYYY-MM-DD) or an ISO 8601 instant with a zone.`);
  }
  return new Date(ms).toISOString();
}

function validLabel(label: string): string {
  const text = label.trim();
  if (text === '' || text.length > 200) throw new ValidationError('label must be 1 to 200 characters.');
  return text;
}

const cityIds = (v: readonly string[]) => scopeList<string>('cities', v, (id) => CITY_ID.test(id));
const productIds = (v: readonly string[]) =>
  scopeList<Product | typeof ANY>('products', v, (id) => (PRODUCTS as readonly string[]).includes(id));
const metricIds = (v: readonly string[]) =>
  scopeList<Metric | typeof ANY>('metrics', v, (id) => (METRICS as readonly string[]).includes(id));
const originList = (v: readonly string[]) => [...new Set(v.filter((o) => o.trim() !== '').map(normalizeOriginEntry))];

/** A spec with every field checked and normalised; throws a ValidationError naming the first bad field. */
export function validateSpec(spec: KeySpec, now: Date): KeySpec {
  if (spec.type !== 'sk' && spec.type !== 'pk') throw new ValidationError(`type must be 'sk' or 'pk'.`);
  const expiresAt = spec.expiresAt === undefined ? undefined : parseExpiry(spec.expiresAt);
  if (expiresAt !== undefined && Date.parse(expiresAt) <= now.getTime()) {
    throw new ValidationError(`expiry ${expiresAt} is in the past.`);
  }
  return {
    type: spec.type,
    label: validLabel(spec.label),
    cities: spec.cities === undefined ? undefined : cityIds(spec.cities),
    products: spec.products === undefined ? undefined : productIds(spec.products),
    metrics: spec.metrics === undefined ? undefined : metricIds(spec.metrics),
    origins: spec.origins === undefined ? undefined : originList(spec.origins),
    ratePerMin: spec.ratePerMin === undefined ? undefined : limit('rate per minute', spec.ratePerMin, 1),
    reportsPerDay: spec.reportsPerDay === undefined ? undefined : limit('reports per day', spec.reportsPerDay, 0),
    expiresAt,
  };
}

/** Changes with every given field checked and normalised (`null` passes through: it clears the field). */
export function validateChanges(changes: KeyChanges): KeyChanges {
  return {
    label: changes.label === undefined ? undefined : validLabel(changes.label),
    cities: changes.cities === undefined ? undefined : cityIds(changes.cities),
    products: changes.products === undefined ? undefined : productIds(changes.products),
    metrics: changes.metrics === undefined ? undefined : metricIds(changes.metrics),
    origins: changes.origins === undefined ? undefined : originList(changes.origins),
    ratePerMin: changes.ratePerMin == null ? changes.ratePerMin : limit('rate per minute', changes.ratePerMin, 1),
    reportsPerDay: changes.reportsPerDay == null ? changes.reportsPerDay : limit('reports per day', changes.reportsPerDay, 0),
    expiresAt: changes.expiresAt == null ? changes.expiresAt : parseExpiry(changes.expiresAt),
    active: changes.active,
  };
}
