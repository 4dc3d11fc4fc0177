/**
 * Cache keys, built in this one module. A key names everything a cached value depends on: the dataset and its content
 * version (new data, new key) and the compute version (new kernels or statistics definitions, new key), plus the
 * request parameters. Coordinates are already rounded to 5 decimals and are printed with exactly 5.
 */

/** What identifies a value computed for one location of one dataset; `kind` tells which computation. */
interface LocationCacheKey<Kind extends string> {
  readonly kind: Kind;
  readonly dataset: string;
  readonly contentVersion: string;
  /** Version of the computation (kernels, statistics definitions, surroundings reductions). */
  readonly computeVersion: string;
  readonly lat: number;
  readonly lon: number;
  /** Metres; null for point sampling and for nationwide answers (which ignore the radius). */
  readonly radiusM: number | null;
  /** Canonical string form: kind and every part, each URI-encoded, joined by `|`. */
  readonly id: string;
}

/** Builds a location key of `kind` from its parts; coordinates printed with exactly 5 decimals. */
function locationCacheKey<Kind extends string>(
  kind: Kind, parts: Omit<LocationCacheKey<Kind>, 'kind' | 'id'>,
): LocationCacheKey<Kind> {
  const radius = parts.radiusM === null ? '-' : String(parts.radiusM);
  const id = [kind, parts.dataset, parts.contentVersion, parts.computeVersion, parts.lat.toFixed(5), parts.lon.toFixed(5), radius]
    .map((part) => encodeURIComponent(part))
    .join('|');
  return Object.freeze({ kind, ...parts, id });
}

/** The identity of one historical statistics computation (`id`: the key of `stats_cache` and of the single flight). */
export type StatsCacheKey = LocationCacheKey<'stats'>;

/** Builds the key of a statistics computation. */
export function statsCacheKey(parts: Omit<StatsCacheKey, 'kind' | 'id'>): StatsCacheKey {
  return locationCacheKey('stats', parts);
}

/** The identity of one report surroundings grid (a window of per-cell annual values around a location). */
export type SurroundingsCacheKey = LocationCacheKey<'surroundings'>;

/** Builds the key of a surroundings grid. */
export function surroundingsCacheKey(parts: Omit<SurroundingsCacheKey, 'kind' | 'id'>): SurroundingsCacheKey {
  return locationCacheKey('surroundings', parts);
}
