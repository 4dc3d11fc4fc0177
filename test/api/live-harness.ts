/**
 * The application with live data wired in, over real sockets: the API talks HTTP to a model service that is either
 * the real stand-in (synthetic Grand-Place block, its clock tied to the test's manual clock, requests counted) or a
 * fault-injection server given by the test. The deadline timer runs on the manual clock, so a slow upstream times out
 * exactly when the test advances time; retry back-off waits fire at once.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/api/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { SqliteKeyStore } from '../../src/keys/key-store.js';
import type { KeySpec } from '../../src/keys/key-types.js';
import { createModelServiceClient } from '../../src/model-service/client.js';
import { createModelService } from '../../src/model-service/model-service.js';
import { listenModelService, modelServiceHandler, type RunningModelService } from '../../src/model-service/server.js';
import { openDatasets } from '../../src/store/data-dir.js';
import { HistoricalService } from '../../src/services/historical-service.js';
import { LiveService } from '../../src/services/live-service.js';
import { SqliteStatsCache } from '../../src/services/stats-cache.js';
import { createUpstreamClient, type UpstreamClient } from '../../src/upstream/upstream-client.js';
import type { UpstreamClock } from '../../src/upstream/upstream-types.js';
import { syntheticDataDir } from '../model-service/synthetic-city.js';
import { FakeCompute } from '../services/support/fake-compute.js';
import { ManualClock } from '../services/support/manual-clock.js';
import { embeddedGeocoder } from './support/harness.js';
import { inProcessReports, type InProcessReports } from './support/reports-harness.js';

/** 2025-07-15T12:30:00Z: the live hour is 12:00 UTC, 14:00 local. */
export const LIVE_T0 = Date.parse('2025-07-15T12:30:00Z');

/** Deadline of model-service calls in these tests. */
export const MODEL_TIMEOUT_MS = 10_000;

/** The real stand-in model service over the synthetic block, counting the requests it gets. */
export interface RealModelService {
  readonly url: string;
  /** Requests received so far. */
  requests(): number;
  close(): Promise<void>;
}

/** Starts the stand-in on a loopback port; its live hour follows `clock`. */
export async function startRealModelService(clock: ManualClock): Promise<RealModelService> {
  const { dataDir, cleanup } = await syntheticDataDir();
  const service = await createModelService({ datasets: (await openDatasets(dataDir)).readers, seed: 1, now: () => clock.now() });
  const handler = modelServiceHandler(service);
  let count = 0;
  const running: RunningModelService = await listenModelService((req, res) => {
    count++;
    handler(req, res);
  }, '127.0.0.1', 0);
  return {
    url: running.url,
    requests: () => count,
    close: async () => {
      await running.close();
      await cleanup();
    },
  };
}

/** Everything a live test drives and inspects. */
export interface LiveHarness {
  readonly app: FastifyInstance;
  readonly clock: ManualClock;
  readonly upstream: UpstreamClient;
  readonly db: Database;
  /** The reports product over test doubles (test/api/support/reports-harness.ts); its runner is started. */
  readonly reports: InProcessReports;
  /** Issues a key (defaults: secret, every scope, a rate limit no test reaches). */
  issue(spec?: Partial<KeySpec>): string;
  close(): Promise<void>;
}

/** Builds the app over the model service at `modelUrl`, sharing `clock` (the test's manual clock). */
export async function liveHarness(modelUrl: string, clock: ManualClock, failureThreshold = 5): Promise<LiveHarness> {
  const config = loadConfig({}, { logLevel: 'silent', dbFile: ':memory:', modelServiceUrl: modelUrl, modelServiceTimeoutMs: MODEL_TIMEOUT_MS });
  const db = openDatabase(':memory:');
  const keys = new SqliteKeyStore(db);
  const compute = new FakeCompute();
  const geocoder = embeddedGeocoder();
  const historical = new HistoricalService({
    backend: compute, geocoder, cache: new SqliteStatsCache(db, () => clock.now()), clock, timeoutMs: 30_000, computeVersion: 'test',
  });
  const upstreamClock: UpstreamClock = {
    now: () => clock.now(),
    setTimer: (ms, fn) => (ms === MODEL_TIMEOUT_MS ? clock.setTimer(ms, fn) : (queueMicrotask(fn), () => undefined)),
  };
  const upstream = createUpstreamClient({
    name: 'model service', baseUrl: config.modelServiceUrl!, timeoutMs: config.modelServiceTimeoutMs, clock: upstreamClock, failureThreshold,
  });
  const live = new LiveService({ model: createModelServiceClient(upstream), geocoder, clock });
  const reports = await inProcessReports({ db, clock, geocoder, config });
  const app = await buildApp({ config, keys, geocoder, historical, live, clock, reports: reports.service });
  await app.ready();
  reports.runner.start();
  return {
    app,
    clock,
    upstream,
    db,
    reports,
    issue: (spec = {}) => keys.create({ type: 'sk', label: 'live test', ratePerMin: 1_000_000, ...spec }, new Date(clock.now())).key,
    close: async () => {
      await app.close();
      await reports.close();
      await compute.close();
      db.close();
    },
  };
}
