/**
 * The API node: the HTTP application over the products (historical statistics, live records, the map, reports) and
 * the node's back ends, which `backendsFor` builds from the configuration (embedded, or NATS when `SVC_NATS_URL` is
 * set) as one record. What it starts is registered on one `Lifecycle` (util/lifecycle.ts) in the order it starts, so
 * it is taken down in reverse order, after a failed start as after a shutdown. `svc serve` and `svc demo` run
 * it, and so do the end-to-end tests and benchmarks.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { closeDraining } from '../api/http-server.js';
import type { PlannedCompute } from '../compute/planned-compute.js';
import type { Config } from '../config.js';
import { cacheBudgets } from '../config/memory-budget.js';
import { openDatabase, type Database } from '../db/database.js';
import { DamagedDataError } from '../errors.js';
import type { Geocoder } from '../geocode/geocoder.js';
import { CachedKeyLookup } from '../keys/cached-key-lookup.js';
import { SqliteKeyStore } from '../keys/key-store.js';
import { MapService } from '../map/map-service.js';
import { poolRenderer } from '../map/tile-renderer.js';
import { loadTileSecret } from '../map/tile-secret.js';
import { connectModelService, type ModelServiceConnection } from '../model-service/connect.js';
import { createReportContentSource, SurroundingsSource } from '../reports/index.js';
import { createReportProduct, type ReportProduct } from '../reports/report-product.js';
import type { ReportContentSource } from '../reports/report-types.js';
import type { HistoricalService } from '../services/historical-service.js';
import { LiveCache } from '../services/live-cache.js';
import { LiveService } from '../services/live-service.js';
import { DamageRegistry } from '../store/damage-registry.js';
import { listDatasets } from '../store/data-dir.js';
import { systemClock, type Clock } from '../util/clock.js';
import { Lifecycle } from '../util/lifecycle.js';
import type { Logger } from '../util/logger.js';
import { backendsFor, type NodeBackends } from './backends.js';
import { geocoderFor } from './geocoders.js';
import { buildApp, defaultBatchService } from './http-app.js';
import { describeFailure } from './batch-failures.js';
import { BATCH_JOB_KIND } from '../batch/batch-job-request.js';
import { BatchJobService, BatchProgress, batchWork } from '../batch/batch-jobs.js';
import type { JobTransitions } from '../reports/jobs/job-types.js';
import type { ReportFileStore } from '../reports/jobs/report-files.js';
import { historicalService } from './statistics.js';
import { AreaService } from '../area/area-service.js';
import { AREA_JOB_KIND } from '../area/area-job-request.js';
import { AREA_JOB_VIEW, areaWork } from '../area/area-jobs.js';


/**
 * Opens every dataset of the data directory once, as a query would (metadata, chunk manifest, outdoor mask, city
 * references), so damage is reported at start-up: logged once and shown by `/health`. The others keep serving.
 */
async function checkDatasets(dataDir: string, compute: PlannedCompute, damage: DamageRegistry): Promise<void> {
  for (const id of await listDatasets(dataDir)) {
    await compute.datasetVersion(id).catch((err: unknown) => {
      if (!(err instanceof DamagedDataError)) throw err;
      damage.report(err);
    });
  }
}

/** The parts of the service a report's content is gathered from. */
export interface ReportContentParts {
  readonly historical: HistoricalService;
  readonly compute: PlannedCompute;
  /** The memory budget's share for surroundings grids, bytes. */
  readonly surroundingsCacheBytes: number;
  readonly geocoder: Geocoder;
  readonly clock: Clock;
}

/** How the reports product is made: its content source over the service's parts, and its rendering threads' entry. */
export interface ReportsWiring {
  readonly content: (parts: ReportContentParts) => ReportContentSource;
  /** The compiled entry of the rendering threads; workers/report-worker.js by default. */
  readonly renderWorker?: string;
}

/** The reports product as the service runs it: the report content gathered over the statistics and compute pool. */
export const DEFAULT_REPORTS_WIRING: ReportsWiring = Object.freeze({
  content: (parts: ReportContentParts) => createReportContentSource({
    historical: parts.historical, surroundings: new SurroundingsSource(parts.compute, parts.surroundingsCacheBytes), clock: parts.clock,
  }),
});

/** Options of `createServer`. */
export interface ServerOptions {
  /** The reports product's wiring; `DEFAULT_REPORTS_WIRING` unless given. */
  readonly reports?: ReportsWiring;
}

/** Messages of background work go to the application's logger once it exists. */
function forwardingLogger(target: () => FastifyBaseLogger | undefined): Logger {
  return {
    info: (obj, msg) => target()?.info(obj, msg),
    warn: (obj, msg) => target()?.warn(obj, msg),
    error: (obj, msg) => target()?.error(obj, msg),
  };
}

/** A built API node: the application (ready, not yet listening), the parts it runs on, and its shutdown. */
export interface Server {
  readonly app: FastifyInstance;
  readonly config: Config;
  readonly db: Database;
  /** The key store over `db` (the operator CLI's view of the same table). */
  readonly keys: SqliteKeyStore;
  /** The node's back ends (embedded or NATS). */
  readonly backends: NodeBackends;
  /** The compute back end (`backends.compute`). */
  readonly compute: PlannedCompute;
  readonly historical: HistoricalService;
  readonly modelService: ModelServiceConnection;
  /** The map catalog and tiles (tiles drawn in the compute pool). */
  readonly map: MapService;
  /** Damage found in the datasets (at start-up and while serving); `/health` reports it. */
  readonly damage: DamageRegistry;
  /** The reports product: jobs, files, rendering threads. */
  readonly reports: ReportProduct;
  /** Which geocoder answers addresses, in one line (the start-up banner prints it). */
  readonly geocoderSource: string;
  /** The node's cluster link (`SVC_NATS_URL`); undefined on the embedded default. */
  readonly cluster: { readonly nodeId: string; readonly link: NonNullable<NodeBackends['link']> } | undefined;
  /**
   * Graceful shutdown, once (later calls share the first): what was started, released in reverse order — the server
   * stops accepting and in-flight requests finish, then report jobs in hand are queued again for the next start and
   * the rendering threads close, then the model service stops, computations still running (those whose clients timed
   * out) settle and are cached, the back ends close (the compute pool or queue, then the link), the geocoder closes
   * and the database closes last. Every release runs even if one fails; the failures are logged and rejected with.
   */
  close(): Promise<void>;
}

/**
 * Builds the API node for `config`. What it starts is registered on one lifecycle as it starts, so a failure part-way
 * and `close()` release the same things in the same (reverse) order.
 */
export async function createServer(config: Config, options: ServerOptions = {}): Promise<Server> {
  let log: FastifyBaseLogger | undefined;
  const logger = forwardingLogger(() => log);
  const life = new Lifecycle(logger);
  return life.start(async () => {
    const clock = systemClock;
    // Every cache's share of SVC_MEMORY_BUDGET_MB (loadConfig has checked that they fit).
    const budgets = cacheBudgets(config);
    const db = openDatabase(config.dbFile);
    life.defer('database', () => db.close());
    const selected = geocoderFor(config);
    life.defer('geocoder', () => selected.close());
    const geocoder = selected.geocoder;
    const backends = await backendsFor(config, { db, clock, logger });
    life.defer('back ends', () => backends.close());
    // Damage found in the datasets, shared with the embedded model service so each problem is logged once.
    const damage = new DamageRegistry({ now: clock.now });
    const historical = historicalService(config, backends, { geocoder, clock, logger, damage });
    // Computations still running (those whose clients timed out) settle and are cached before the back ends close.
    life.defer('statistics in flight', () => historical.drain());
    const area = new AreaService({ backend: backends.compute, dataDir: config.dataDir, cellLimit: config.areaSyncCells, clock, timeoutMs: config.upstreamTimeoutMs, logger });
    // Live and forecast data: the configured model service, or the embedded one over the data directory.
    const modelService = await connectModelService({
      url: config.modelServiceUrl, dataDir: config.dataDir, timeoutMs: config.modelServiceTimeoutMs, clock, damage,
      chunkCacheBytes: budgets.modelChunks, sliceCacheBytes: budgets.modelSlices,
    });
    life.defer('model service', () => modelService.close());
    const live = new LiveService({
      model: modelService.client, geocoder, clock, cache: new LiveCache({ clock, budgetBytes: budgets.realtime }),
    });
    const keys = new SqliteKeyStore(db);
    // Presented keys are looked up in SQLite at most once per KEY_CACHE_TTL_MS each (operator changes apply within it).
    const lookup = new CachedKeyLookup(keys, { now: clock.now });
    const wiring = options.reports ?? DEFAULT_REPORTS_WIRING;
    const content = wiring.content({ historical, compute: backends.compute, surroundingsCacheBytes: budgets.surroundings, geocoder, clock });
    // Batches of locations share one work gate; their asynchronous jobs (and area jobs) run beside reports on the
    // same job machinery: a driver that runs jobs in this process (the embedded default) runs them too; one that hands
    // jobs to workers (a cluster's dispatcher queues every open job) leaves `otherWork` unused, so the node never asks
    // which it has.
    const batch = defaultBatchService(historical);
    const batchProgress = new BatchProgress();
    const otherWork = (queue: JobTransitions, files: ReportFileStore) => ({
      [BATCH_JOB_KIND]: batchWork({ batch, queue, files, clock, progress: batchProgress, describe: (err) => describeFailure(err, logger) }),
      [AREA_JOB_KIND]: areaWork({ area, queue, files, clock, progress: batchProgress, describe: (err) => describeFailure(err, logger) }),
    });
    const reports = createReportProduct({
      store: backends.jobs,
      files: backends.files,
      driver: (renderer) => backends.jobDriver({ content, renderer, keyById: (id) => keys.findById(id), otherWork }),
      geocoder, clock, limits: config.limits, logger,
      renderThreads: config.reportRenderThreads,
      pdfWaitMs: config.reportPdfWaitMs,
      ...(wiring.renderWorker !== undefined ? { renderWorker: wiring.renderWorker } : {}),
    });
    // Report jobs in hand are queued again for the next start, and the rendering threads close.
    life.defer('reports', () => reports.close());
    const map = new MapService({
      model: modelService.client,
      keys: lookup,
      clock,
      renderer: poolRenderer(backends.compute),
      secret: await loadTileSecret(config.tileSecret, config.dataDir),
      sliceCacheBytes: budgets.mapSlices,
      tileCacheBytes: budgets.mapTiles,
      annualBandCacheBytes: budgets.annualBands,
      // The annual layers are drawn from the cities' precomputes in the data directory.
      dataDir: config.dataDir,
      warn: (message) => logger.warn({}, message),
    });
    const batchJobs = new BatchJobService({ store: reports.store, files: reports.files, driver: reports.driver, clock, progress: batchProgress, others: [AREA_JOB_VIEW], openPerKey: config.jobsPerKey });
    const app = await buildApp({
      config, keys: lookup, geocoder, historical, area, live, map, clock, damage, reports: reports.service, rateLimiter: backends.rateLimiter,
      batch, batchJobs,
    });
    log = app.log;
    // The server stops accepting and in-flight requests finish first.
    life.defer('http server', () => closeDraining(app));
    await checkDatasets(config.dataDir, backends.compute, damage);
    await app.ready();
    reports.start();

    const cluster = backends.link === undefined ? undefined : { nodeId: backends.nodeId, link: backends.link };
    return {
      app, config, db, keys, backends, compute: backends.compute, historical, modelService, map, damage, reports, cluster,
      geocoderSource: selected.source,
      close: () => life.close(),
    };
  });
}
