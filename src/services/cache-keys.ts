/**
 * Cache keys, built in this one module. A key names everything a cached value depends on: the dataset and its content
 * version (new data, new key) and the compute version (new kernels or statistics definitions, new key), plus the
 * request parameters. Coordinates are already rounded to 5 decimals and are printed with exactly 5.
 */

/** The identity of one historical statistics computation. */
export interface StatsCacheKey {
  readonly kind: 'stats';
  readonly dataset: string;
  readonly contentVersion: string;
  readonly computeVersion: string;
  readonly lat: number;
  readonly lon: number;
  /** Metres; null for point sampling and for nationwide answers (which ignore the radius). */
  readonly radiusM: number | null;
  /** Canonical string form: the primary key of the `stats_cache` table and of the single-flight map. */
  readonly id: string;
}

/** Builds the key of a statistics computation. */
export function statsCacheKey(parts: Omit<StatsCacheKey, 'kind' | 'id'>): StatsCacheKey {
  const radius = parts.radiusM === null ? '-' : String(parts.radiusM);
  const id = [
    'stats',
    parts.dataset,
    parts.contentVersion,
    parts.computeVersion,
    parts.lat.toFixed(5),
    parts.lon.toFixed(5),
    radius,
  ]
    .map((part) => encodeURIComponent(part))
    .join('|');
  return Object.freeze({ kind: 'stats', ...parts, id });
}

/** The identity of one report surroundings grid (a window of per-cell annual values around a location). */
export interface SurroundingsCacheKey {
  readonly kind: 'surroundings';
  readonly dataset: string;
  readonly contentVersion: string;
  /** Version of the surroundings computation. */
  readonly computeVersion: string;
  readonly lat: number;
  readonly lon: number;
  /** Metres; null for point sampling and for nationwide answers (which ignore the radius). */
  readonly radiusM: number | null;
  /** Canonical string form. */
  readonly id: string;
}

/** Builds the key of a surroundings grid. */
export function surroundingsCacheKey(parts: Omit<SurroundingsCacheKey, 'kind' | 'id'>): SurroundingsCacheKey {
  const radius = parts.radiusM === null ? '-' : String(parts.radiusM);
  const id = ['surroundings', parts.dataset, parts.contentVersion, parts.computeVersion, parts.lat.toFixed(5), parts.lon.toFixed(5), radius]
    .map((part) => encodeURIComponent(part))
    .join('|');
  return Object.freeze({ kind: 'surroundings', ...parts, id });
}
