/**
 * Builds the application over test doubles: an in-memory database, the fake compute back end, a manual clock and the
 * embedded geocoder (or a given one). `issue` creates keys the way the operator CLI does.
 */
import { cacheBudgets } from '../../../src/config/memory-budget.js';
import { StatsResponseCache } from '../../../src/services/stats-responses.js';
import type { FastifyInstance } from 'fastify';
import { AreaService } from '../../../src/area/area-service.js';
import { FIXTURE_DATA_DIR } from '../../helpers/fixture-paths.js';
import { buildApp } from '../../../src/nodes/http-app.js';
import { loadConfig, type Config, type ConfigOverrides } from '../../../src/config.js';
import { openDatabase, type Database } from '../../../src/db/database.js';
import { GAZETTEER } from '../../../src/geocode/gazetteer-data.js';
import { createGazetteer } from '../../../src/geocode/gazetteer.js';
import { createEmbeddedGeocoder, type Geocoder } from '../../../src/geocode/geocoder.js';
import { SqliteKeyStore } from '../../../src/keys/key-store.js';
import type { KeySpec } from '../../../src/keys/key-types.js';
import type { RateLimiter } from '../../../src/keys/rate-limiter.js';
import { HistoricalService } from '../../../src/services/historical-service.js';
import type { ReportService } from '../../../src/reports/delivery/report-service.js';
import { SqliteStatsCache } from '../../../src/services/stats-cache.js';
import { FakeCompute } from '../../services/support/fake-compute.js';
import { ManualClock } from '../../services/support/manual-clock.js';

/** 2025-03-10T12:00:30Z: mid-minute, so window arithmetic is visible. */
export const T0 = Date.parse('2025-03-10T12:00:30.000Z');

let sharedGeocoder: Geocoder | undefined;

/** The embedded geocoder, built once per test file (its index takes a moment to build). */
export function embeddedGeocoder(): Geocoder {
  sharedGeocoder ??= createEmbeddedGeocoder(createGazetteer(GAZETTEER));
  return sharedGeocoder;
}

/** Everything a test needs to drive and inspect the app. */
export interface Harness {
  readonly app: FastifyInstance;
  readonly config: Config;
  readonly db: Database;
  readonly keys: SqliteKeyStore;
  readonly compute: FakeCompute;
  readonly clock: ManualClock;
  readonly historical: HistoricalService;
  /** Issues a key and returns it (defaults: secret, every scope). */
  issue(spec?: Partial<KeySpec>): string;
  close(): Promise<void>;
}

/** Options of the harness. */
export interface HarnessOptions {
  readonly config?: ConfigOverrides;
  readonly geocoder?: Geocoder;
  readonly timeoutMs?: number;
  /** Defaults to the application's own in-memory limiter. */
  readonly rateLimiter?: RateLimiter;
  /** Receives the log lines (with a `logLevel` other than silent in `config`). */
  readonly logStream?: { write(line: string): void };
  /** Adds routes (e.g. a body-accepting test route) before the app is made ready. */
  readonly beforeReady?: (app: FastifyInstance) => void | Promise<void>;
  /** Builds the reports service over the harness's database, clock and geocoder (reports-harness.ts). */
  readonly reports?: (parts: { db: Database; clock: ManualClock; geocoder: Geocoder; config: Config }) => Promise<ReportService>;
}

/** Builds a ready application over fresh test doubles. */
export async function harness(options: HarnessOptions = {}): Promise<Harness> {
  const config = loadConfig({}, { logLevel: 'silent', dbFile: ':memory:', upstreamTimeoutMs: options.timeoutMs ?? 30_000, ...options.config });
  const db = openDatabase(':memory:');
  const keys = new SqliteKeyStore(db);
  const compute = new FakeCompute();
  const clock = new ManualClock(T0);
  const geocoder = options.geocoder ?? embeddedGeocoder();
  const historical = new HistoricalService({
    backend: compute,
    geocoder,
    cache: new SqliteStatsCache(db, () => clock.now()),
    clock,
    timeoutMs: config.upstreamTimeoutMs,
    computeVersion: `test-${config.version}`,
    // As the service keeps them (src/nodes/statistics.ts): batch locations and the fast path replay stored answers.
    answers: config.statsResponseCacheMb !== 0 ? new StatsResponseCache(cacheBudgets(config).statsResponses) : undefined,
  });
  const reports = options.reports ? await options.reports({ db, clock, geocoder, config }) : undefined;
  // Areas over the fixture datasets' grids, the fake back end's blocks.
  const area = new AreaService({ backend: compute, dataDir: FIXTURE_DATA_DIR, clock, timeoutMs: config.upstreamTimeoutMs });
  const app = await buildApp({
    config, keys, geocoder, historical, area, clock,
    ...(reports ? { reports } : {}),
    ...(options.rateLimiter ? { rateLimiter: options.rateLimiter } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  await options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    config,
    db,
    keys,
    compute,
    clock,
    historical,
    issue: (spec = {}) => keys.create({ type: 'sk', label: 'test', ...spec }, new Date(clock.now())).key,
    close: async () => {
      await app.close();
      await compute.close();
      await historical.drain();
      db.close();
    },
  };
}
