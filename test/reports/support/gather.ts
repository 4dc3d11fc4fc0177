/**
 * Real report content from the fixture datasets: the local compute pool, the historical service over an in-memory
 * SQLite cache and the embedded geocoder, as the server wires them.
 */
import { createLocalCompute } from '../../../src/compute/local-compute.js';
import { openDatabase } from '../../../src/db/database.js';
import type { ApiKeyRecord } from '../../../src/keys/key-types.js';
import { HistoricalService } from '../../../src/services/historical-service.js';
import { SqliteStatsCache } from '../../../src/services/stats-cache.js';
import type { ReportContentV1 } from '../../../src/reports/content/content-model.js';
import { createReportContentSource } from '../../../src/reports/content/content-source.js';
import type { ReportContentSource, ReportLang, ReportRequest } from '../../../src/reports/report-types.js';
import { embeddedGeocoder } from '../../api/support/harness.js';
import { ManualClock } from '../../services/support/manual-clock.js';
import { fixtureDataDir } from '../../helpers/fixtures.js';
import type { PlannedCompute } from '../../../src/compute/planned-compute.js';

/** A key with every scope, or with the given metric scope. */
export function keyWith(metrics: ApiKeyRecord['metrics'] = ['*']): ApiKeyRecord {
  return {
    id: 7, type: 'sk', label: 'reports test', cities: ['*'], products: ['*'], metrics, origins: [], ratePerMin: undefined,
    reportsPerDay: undefined, createdUtc: '2025-01-01T00:00:00.000Z', expiresAt: undefined, active: true, deactivatedUtc: undefined,
  };
}

/** Report locations used across the tests. */
export const PLACES = {
  /** Street level, inside the Brussels zone. */
  brussels: { address: 'Grand-Place 1, 1000 Bruxelles', lat: 50.8466, lon: 4.3519, radiusM: 20 },
  /** Nationwide (Namur), no city. */
  namur: { address: "Place d'Armes 1, 5000 Namur", lat: 50.465, lon: 4.866, radiusM: 10 },
  /** Ghent: a covered city answered by the nationwide dataset, air only. */
  ghent: { address: 'Korenmarkt 1, 9000 Gent', lat: 51.0545, lon: 3.7213, radiusM: 10 },
} as const;

/** The request of `place` in `lang`. */
export function requestOf(place: keyof typeof PLACES, lang: ReportLang): ReportRequest {
  return { ...PLACES[place], lang, keyId: 7 };
}

/** The generation instant of test reports: 2026-03-10 12:00:30 UTC. */
export const T0 = Date.parse('2026-03-10T12:00:30.000Z');

/** A content source over the fixture; close it when done. */
export async function fixtureSource(): Promise<{ source: ReportContentSource; compute: PlannedCompute; close(): Promise<void> }> {
  const compute = await createLocalCompute({ dataDir: await fixtureDataDir(), threads: 2 });
  const clock = new ManualClock(T0);
  const historical = new HistoricalService({
    backend: compute, geocoder: embeddedGeocoder(), cache: new SqliteStatsCache(openDatabase(':memory:')), clock,
    timeoutMs: 120_000, computeVersion: 'test',
  });
  const source = createReportContentSource({ historical, surroundings: compute, clock });
  return { source, compute, close: () => compute.close() };
}

/** Gathers the content of `place` in every language with a full key. */
export async function gatherAll(source: ReportContentSource, place: keyof typeof PLACES): Promise<Record<ReportLang, ReportContentV1>> {
  const out = {} as Record<ReportLang, ReportContentV1>;
  for (const lang of ['en', 'fr', 'nl'] as const) {
    out[lang] = (await source.gather(requestOf(place, lang), keyWith())) as ReportContentV1;
  }
  return out;
}
