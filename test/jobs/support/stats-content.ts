/**
 * A content source double for end-to-end tests of delivery until the report content lands: it gathers what a report
 * needs most, the location's statistics, through the real HistoricalService (real compute threads, cache, scopes and
 * errors), and nothing else. Its failures are the service's own (e.g. 422 outside coverage for a radius holding no
 * outdoor cell, which fails the job permanently).
 */
import type { ReportContentSource } from '../../../src/reports/report-types.js';
import type { ReportContentParts } from '../../../src/server.js';

/** Content = the request and its statistics envelope. */
export function statsContentSource(parts: ReportContentParts): ReportContentSource {
  return {
    async gather(request, key) {
      const result = await parts.historical.stats({ lat: request.lat, lon: request.lon, radius: request.radiusM }, key);
      return { version: 1, request, generatedUtc: new Date(parts.clock.now()).toISOString(), statistics: JSON.parse(result.body) as unknown };
    },
  };
}
