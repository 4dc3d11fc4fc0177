/**
 * The bounds of a synchronous area request (`POST /v1/historical/area`), checked before any work starts, and how its
 * work is counted against the key's per-minute rate limit. The asynchronous jobs take what is over these limits.
 */

/** Features of one FeatureCollection. */
export const AREA_MAX_FEATURES = 100;

/** Positions of all rings of all features of one body (bounds parsing and the self-intersection check). */
export const AREA_MAX_POSITIONS = 20_000;

/** Body size, bytes (larger: 413 `payload_too_large`). */
export const AREA_BODY_LIMIT_BYTES = 1024 * 1024;

/** Grid cells the features of one request may touch together (their exact coverage), answered synchronously. */
export const AREA_SYNC_CELL_LIMIT = 100_000;

/**
 * Grid cells the features of one asynchronous job (`POST /v1/historical/jobs`) may touch together: a city's whole
 * extent (the demo zone holds 307,200 cells at 10 m; Brussels' 161 km² are 1.6 million at 10 m).
 */
export const AREA_JOB_CELL_LIMIT = 4_000_000;

/** A feature's bounding box in a job may span at most this many cells (the job's own bounding-box limit). */
export const AREA_JOB_BBOX_CELLS = 4 * AREA_JOB_CELL_LIMIT;

/**
 * A feature's bounding box may span at most this many times the synchronous cell limit: checked before the exact
 * coverage is computed, so a thin diagonal polygon across a city is refused before its clipping starts.
 */
export const AREA_BBOX_FACTOR = 16;

/** Cells counted as one request against the rate limit (about a 28 m radius at 1 m). */
export const AREA_CELLS_PER_REQUEST = 2_500;

/** Requests an area request counts against the rate limit: per answered feature, one per started 2,500 cells, at least one. */
export function areaRequestUnits(touchedPerFeature: readonly number[]): number {
  return Math.max(1, touchedPerFeature.reduce((n, cells) => n + Math.max(1, Math.ceil(cells / AREA_CELLS_PER_REQUEST)), 0));
}
