/**
 * The bounds of batch work, fixed before any work starts (docs/batch.md states them): how many locations one
 * synchronous request or one job may name, how large its body may be, and how wide a CSV upload may be.
 */

/** Locations of one `POST /historical/batch` (Open-Meteo's bound; each counts as one request). */
export const SYNC_MAX_LOCATIONS = 1_000;
/** Locations of one asynchronous job (`POST /historical/jobs`). */
export const JOB_MAX_LOCATIONS = 10_000;
/** Largest body of a synchronous batch, bytes (413 above): 1,000 locations with 200-character addresses fit. */
export const SYNC_BODY_LIMIT_BYTES = 1024 * 1024;
/** Largest body of a job, bytes. */
export const JOB_BODY_LIMIT_BYTES = 8 * 1024 * 1024;
/** Longest location id, characters. */
export const ID_MAX_CHARS = 64;
/** Columns of a CSV upload (id, lat, lon, address, radius and a few the reader ignores). */
export const CSV_MAX_COLUMNS = 16;
/** Characters of one CSV row. */
export const CSV_MAX_ROW_CHARS = 1_024;
/** Locations of one batch computed at the same time: enough to keep the compute pool busy, never all of it. */
export const BATCH_PARALLELISM = 4;
