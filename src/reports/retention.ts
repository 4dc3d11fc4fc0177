/**
 * How long a report is kept: the product's promise to clients (`expires_in_days` of the accepted answer), read by the
 * route that states it, by the status that treats a job as expired from the exact instant, and by the sweeper that
 * deletes the files.
 */

/** Days report files are kept after generation (the API's `expires_in_days`). */
export const REPORT_RETENTION_DAYS = 30;
/** The same, in milliseconds. */
export const REPORT_RETENTION_MS = REPORT_RETENTION_DAYS * 86_400_000;
