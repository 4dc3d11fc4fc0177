/**
 * The application with live data and the map wired in, over real sockets: the API talks HTTP to a model service that is either
 * the real stand-in (synthetic Grand-Place block, its clock tied to the test's manual clock, requests counted) or a
 * fault-injection server given by the test. The deadline timer runs on the manual clock, so a slow upstream times out
 * exactly when the test advances time; retry back-off waits fire at once. Map tiles are drawn in the test's thread and
 * URLs signed with TEST_TILE_SECRET.
 */
import type { OpenApiDocument } from '../../src/reference/openapi-types.js';
import type { FastifyInstance } from 'fastify';
import { AreaService } from '../../src/area/area-service.js';
import { FIXTURE_DATA_DIR } from '../helpers/fixture-paths.js';
import { BATCH_JOB_KIND } from '../../src/batch/batch-job-request.js';
import { BatchJobService, BatchProgress, batchWork } from '../../src/batch/batch-jobs.js';
import { buildApp, defaultBatchService } from '../../src/nodes/http-app.js';
import { loadConfig, type Config, type ConfigOverrides } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { SqliteKeyStore } from '../../src/keys/key-store.js';
import type { KeySpec } from '../../src/keys/key-types.js';
import { createModelServiceClient } from '../../src/upstream/model-service-client.js';
import { createModelService } from '../../src/model-service/model-service.js';
import { listenModelService, modelServiceHandler, type RunningModelService } from '../../src/model-service/server.js';
import { openDatasets } from '../../src/store/data-dir.js';
import { HistoricalService } from '../../src/services/historical-service.js';
import { LiveService } from '../../src/services/live-service.js';
import { MapService } from '../../src/map/map-service.js';
import { inProcessRenderer } from '../../src/map/tile-renderer.js';
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

/** The URL-signing secret of the harness. */
export const TEST_TILE_SECRET = Buffer.from('the tile secret of the live and map tests, 48 chars');

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
  readonly config: Config;
  readonly clock: ManualClock;
  readonly upstream: UpstreamClient;
  readonly db: Database;
  /** The reports product over test doubles (test/api/support/reports-harness.ts); its runner is started. */
  readonly reports: InProcessReports;
  readonly keys: SqliteKeyStore;
  readonly map: MapService;
  /** Issues a key (defaults: secret, every scope, a rate limit no test reaches). */
  issue(spec?: Partial<KeySpec>): string;
  close(): Promise<void>;
}

/** Builds the app over the model service at `modelUrl`, sharing `clock` (the test's manual clock). */
export async function liveHarness(modelUrl: string, clock: ManualClock, failureThreshold = 5, overrides: ConfigOverrides = {}): Promise<LiveHarness> {
  const config = loadConfig({}, { logLevel: 'silent', dbFile: ':memory:', modelServiceUrl: modelUrl, modelServiceTimeoutMs: MODEL_TIMEOUT_MS, ...overrides });
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
  const model = createModelServiceClient(upstream);
  const live = new LiveService({ model, geocoder, clock });
  const batch = defaultBatchService(historical);
  const progress = new BatchProgress();
  const reports = await inProcessReports({ db, clock, geocoder, config }, {
    otherWork: (queue, files) => ({ [BATCH_JOB_KIND]: batchWork({ batch, queue, files, clock, progress, describe: (err) => ({ code: 'upstream_error', detail: String(err) }) }) }),
  });
  const map = new MapService({
    model, keys, clock, renderer: inProcessRenderer, secret: TEST_TILE_SECRET, sliceCacheBytes: 64 * 1024 * 1024, tileCacheBytes: 16 * 1024 * 1024,
  });
  const area = new AreaService({ backend: compute, dataDir: FIXTURE_DATA_DIR, clock, timeoutMs: 30_000 });
  // Batch jobs run beside reports on the same store and runner.
  const batchJobs = new BatchJobService({ store: reports.store, files: reports.files, driver: reports.runner, clock, progress });
  const app = await buildApp({ config, keys, geocoder, historical, area, live, map, clock, reports: reports.service, batch, batchJobs });
  await app.ready();
  reports.runner.start();
  return {
    app,
    config,
    clock,
    upstream,
    db,
    reports,
    keys,
    map,
    issue: (spec = {}) => keys.create({ type: 'sk', label: 'live test', ratePerMin: 1_000_000, ...spec }, new Date(clock.now())).key,
    close: async () => {
      await app.close();
      await reports.close();
      await compute.close();
      db.close();
    },
  };
}

/** A harness whose model service is never asked (port 9 discards), and the OpenAPI document it publishes. */
export async function openApiHarness(): Promise<{ h: LiveHarness; doc: OpenApiDocument }> {
  const h = await liveHarness('http://127.0.0.1:9', new ManualClock(LIVE_T0));
  return { h, doc: (await h.app.inject({ url: '/v1/openapi.json' })).json<OpenApiDocument>() };
}
