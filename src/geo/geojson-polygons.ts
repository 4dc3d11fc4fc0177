/**
 * Areas given as GeoJSON (RFC 7946): a Polygon, a MultiPolygon, a Feature holding one, or a FeatureCollection of such
 * Features, in WGS 84 longitude/latitude or, with the foreign member `"crs": "EPSG:31370"`, Belgian Lambert 72
 * metres. Each feature is read on its own: what is wrong with one (an unclosed ring, fewer than four positions, a
 * self-intersection, a coordinate that is not a finite number or out of range) becomes that feature's
 * `ValidationError`, naming the feature, the polygon, the ring and the reason; the others are read as usual. What is
 * wrong with the body as a whole (not GeoJSON, too many features or positions, duplicate ids, an unknown CRS) is
 * thrown. The walk descends exactly the depth each type has, so deep nesting costs nothing, and it counts positions
 * as it goes, stopping at the limit: the work a body can cause is bounded before any geometry is computed.
 */
import { ValidationError } from '../errors.js';
import { wgs84ToLambert72 } from './crs.js';
import { ringArea, type MultiPolygonRings, type Position } from './polygon.js';
import { findEdgeContact } from './ring-validity.js';

/** The coordinate systems a body may use. */
export type AreaCrs = 'EPSG:4326' | 'EPSG:31370';

/** Limits of one body. */
export interface GeoJsonLimits {
  readonly maxFeatures: number;
  /** Positions of all rings of all features together. */
  readonly maxPositions: number;
}

/** A feature as read: its id and either its polygons in Lambert 72 metres or why it cannot be used. */
export interface AreaFeature {
  /** Position in the body, 0-based. */
  readonly index: number;
  /** The feature's `id` (string or number), null when it has none (bare geometries, features without one). */
  readonly id: string | number | null;
  readonly polygons?: MultiPolygonRings;
  readonly error?: ValidationError;
}

/** A body as read. */
export interface AreaBody {
  /** `collection`: a FeatureCollection (answers per feature); `single`: one geometry or Feature. */
  readonly kind: 'single' | 'collection';
  readonly crs: AreaCrs;
  readonly features: readonly AreaFeature[];
}

/** Lambert 72 coordinates accepted (metres): the projection's sensible range around Belgium. */
const LAMBERT_RANGE = { min: -100_000, max: 500_000 };

/** A feature's problem, carried up to its feature with the place it was found. */
class FeatureProblem extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function crsOf(body: Record<string, unknown>): AreaCrs {
  const crs = body.crs;
  if (crs === undefined || crs === 'EPSG:4326' || crs === 'OGC:CRS84') return 'EPSG:4326';
  if (crs === 'EPSG:31370') return 'EPSG:31370';
  throw new ValidationError(`'crs' must be "EPSG:31370" (Belgian Lambert 72) or left out for WGS 84, got ${JSON.stringify(crs).slice(0, 60)}.`);
}

/** Reads and checks one body; throws `ValidationError` for problems of the body as a whole. */
export function readAreaBody(body: unknown, limits: GeoJsonLimits): AreaBody {
  if (!isObject(body)) throw new ValidationError('The body must be a GeoJSON object (Polygon, MultiPolygon, Feature or FeatureCollection).');
  const crs = crsOf(body);
  const budget = { left: limits.maxPositions, limit: limits.maxPositions };
  if (body.type === 'FeatureCollection') {
    const list = body.features;
    if (!Array.isArray(list)) throw new ValidationError("A FeatureCollection needs a 'features' array.");
    if (list.length === 0) throw new ValidationError('The FeatureCollection has no features.');
    if (list.length > limits.maxFeatures) {
      throw new ValidationError(`The FeatureCollection has ${list.length} features; at most ${limits.maxFeatures} are answered per request.`);
    }
    const features = list.map((f, i) => readFeature(f, i, crs, budget));
    checkUniqueIds(features);
    return { kind: 'collection', crs, features };
  }
  if (body.type === 'Feature') return { kind: 'single', crs, features: [readFeature(body, 0, crs, budget)] };
  if (body.type === 'Polygon' || body.type === 'MultiPolygon') {
    return { kind: 'single', crs, features: [readFeature({ type: 'Feature', geometry: body }, 0, crs, budget)] };
  }
  throw new ValidationError(`The body's type must be Polygon, MultiPolygon, Feature or FeatureCollection, got ${JSON.stringify(body.type ?? null).slice(0, 40)}.`);
}

function checkUniqueIds(features: readonly AreaFeature[]): void {
  const seen = new Map<string, number>();
  for (const f of features) {
    if (f.id === null) continue;
    const key = `${typeof f.id}:${f.id}`;
    const first = seen.get(key);
    if (first !== undefined) throw new ValidationError(`Features ${first} and ${f.index} have the same id ${JSON.stringify(f.id)}; ids must be unique.`);
    seen.set(key, f.index);
  }
}

function featureName(index: number, id: string | number | null): string {
  return id === null ? `Feature ${index}` : `Feature ${index} (id ${JSON.stringify(id)})`;
}

function readFeature(value: unknown, index: number, crs: AreaCrs, budget: { left: number; limit: number }): AreaFeature {
  const rawId = isObject(value) ? value.id : undefined;
  const id = typeof rawId === 'string' || (typeof rawId === 'number' && Number.isFinite(rawId)) ? rawId : null;
  const name = featureName(index, id);
  try {
    if (!isObject(value) || value.type !== 'Feature') throw new FeatureProblem('is not a GeoJSON Feature.');
    if (rawId !== undefined && id === null) throw new FeatureProblem('has an id that is neither a string nor a finite number.');
    if (typeof rawId === 'string' && rawId.length > 200) throw new FeatureProblem('has an id longer than 200 characters.');
    const geometry = value.geometry;
    if (!isObject(geometry)) throw new FeatureProblem("has no geometry object (a Polygon or MultiPolygon is needed).");
    let parts: unknown[];
    if (geometry.type === 'Polygon') parts = [geometry.coordinates];
    else if (geometry.type === 'MultiPolygon') {
      if (!Array.isArray(geometry.coordinates) || geometry.coordinates.length === 0) throw new FeatureProblem('has a MultiPolygon without polygons.');
      parts = geometry.coordinates;
    } else throw new FeatureProblem(`has a ${JSON.stringify(geometry.type ?? null).slice(0, 40)} geometry; only Polygon and MultiPolygon describe an area.`);
    const multi = geometry.type === 'MultiPolygon';
    const polygons = parts.map((rings, p) => readPolygon(rings, multi ? `polygon ${p}, ` : '', crs, budget));
    return { index, id, polygons };
  } catch (err) {
    if (err instanceof FeatureProblem) return { index, id, error: new ValidationError(`${name} ${err.message}`) };
    if (err instanceof ValidationError) throw err;
    throw err;
  }
}

function ringName(r: number): string {
  return r === 0 ? 'ring 0 (exterior)' : `ring ${r} (hole ${r})`;
}

function readPolygon(value: unknown, where: string, crs: AreaCrs, budget: { left: number; limit: number }): Position[][] {
  if (!Array.isArray(value) || value.length === 0) throw new FeatureProblem(`${where}has no rings: a polygon is an array of linear rings.`);
  const rings = value.map((ring, r) => readRing(ring, `${where}${ringName(r)}`, crs, budget));
  const hit = findEdgeContact(rings);
  if (hit !== undefined) {
    const a = `${ringName(hit.ringA)} edge ${hit.edgeA}`;
    const b = hit.ringA === hit.ringB ? `edge ${hit.edgeB}` : `${ringName(hit.ringB)} edge ${hit.edgeB}`;
    throw new FeatureProblem(`${where}is not simple: ${a} meets ${b} near (${hit.at[0].toFixed(2)}, ${hit.at[1].toFixed(2)}) in EPSG:31370 metres (self-intersection).`);
  }
  rings.forEach((ring, r) => {
    if (ringArea(ring) === 0) throw new FeatureProblem(`${where}${ringName(r)} encloses no area.`);
  });
  return rings;
}

function readRing(value: unknown, where: string, crs: AreaCrs, budget: { left: number; limit: number }): Position[] {
  if (!Array.isArray(value)) throw new FeatureProblem(`${where} is not an array of positions.`);
  budget.left -= value.length;
  if (budget.left < 0) {
    throw new ValidationError(`The body has more than ${budget.limit} positions; simplify the geometry or split it over requests (or use the asynchronous route).`);
  }
  if (value.length < 4) throw new FeatureProblem(`${where} has ${value.length} position${value.length === 1 ? '' : 's'}; a linear ring needs at least 4 (the last repeating the first).`);
  const out: Position[] = [];
  for (let i = 0; i < value.length; i++) {
    const p = readPosition(value[i], `${where} position ${i}`, crs);
    const prev = out[out.length - 1];
    if (prev === undefined || prev[0] !== p[0] || prev[1] !== p[1]) out.push(p);
  }
  const [fx, fy] = value[0] as number[];
  const [lx, ly] = value[value.length - 1] as number[];
  if (fx !== lx || fy !== ly) throw new FeatureProblem(`${where} is not closed: its last position must repeat its first.`);
  if (out.length < 4) throw new FeatureProblem(`${where} has fewer than 4 distinct consecutive positions; it encloses no area.`);
  return out;
}

function readPosition(value: unknown, where: string, crs: AreaCrs): Position {
  if (!Array.isArray(value) || value.length < 2 || value.length > 3) throw new FeatureProblem(`${where} is not a position [x, y].`);
  const [a, b] = value as unknown[];
  if (typeof a !== 'number' || typeof b !== 'number' || !Number.isFinite(a) || !Number.isFinite(b)) {
    throw new FeatureProblem(`${where} has a coordinate that is not a finite number.`);
  }
  if (crs === 'EPSG:31370') {
    if (a < LAMBERT_RANGE.min || a > LAMBERT_RANGE.max || b < LAMBERT_RANGE.min || b > LAMBERT_RANGE.max) {
      throw new FeatureProblem(`${where} (${a}, ${b}) is outside the range of EPSG:31370 metres (${LAMBERT_RANGE.min} to ${LAMBERT_RANGE.max}).`);
    }
    return [a, b];
  }
  if (a < -180 || a > 180 || b < -90 || b > 90) {
    throw new FeatureProblem(`${where} (${a}, ${b}) is out of range: longitude −180 to 180, latitude −90 to 90 (GeoJSON order is [lon, lat]).`);
  }
  try {
    return wgs84ToLambert72(a, b);
  } catch {
    throw new FeatureProblem(`${where} (${a}, ${b}) cannot be expressed in EPSG:31370.`);
  }
}
