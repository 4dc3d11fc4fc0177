/**
 * The composition root: builds the application over the real dependencies (SQLite keys and statistics cache, the
 * configured geocoder, the local compute pool, the configured or embedded model service, the reports product) and
 * knows how to take them down again in the right order. `svc serve` and `svc demo` use it, and so do the end-to-end tests and benchmarks.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp } from './nodes/http-app.js';
import { KERNEL_VERSION } from './compute/stats-kernel.js';
import type { Config } from './config.js';
import type { HttpGeocoderApi } from './config/geocoder-kind.js';
import { DamagedDataError } from './errors.js';
import { openDatabase, type Database } from './db/database.js';
import { GAZETTEER } from './geocode/gazetteer-data.js';
import { createGazetteer } from './geocode/gazetteer.js';
import {
  createEmbeddedGeocoder,
  createHttpGeocoder,
  createNominatimGeocoder,
  createPhotonGeocoder,
  type Geocoder,
  type HttpGeocoderOptions,
} from './geocode/geocoder.js';
import { CachedKeyLookup } from './keys/cached-key-lookup.js';
import { SqliteKeyStore } from './keys/key-store.js';
import { MapService } from './map/map-service.js';
import { poolRenderer } from './map/tile-renderer.js';
import { loadTileSecret } from './map/tile-secret.js';
import { connectModelService, type ModelServiceConnection } from './model-service/connect.js';
import { systemClock } from './util/clock.js';
import { HistoricalService } from './services/historical-service.js';
import { LiveService } from './services/live-service.js';
import { MemoryStatsCache } from './services/memory-stats-cache.js';
import { SqliteStatsCache } from './services/stats-cache.js';
import { DamageRegistry } from './store/damage-registry.js';
import { listDatasets } from './store/data-dir.js';
import type { Logger } from './util/logger.js';
import { createReportContentSource } from './reports/index.js';
import type { ReportContentSource } from './reports/report-types.js';
import { createReportProduct, type ReportProduct } from './reports/report-product.js';
import type { Clock } from './util/clock.js';
import { clusterState, type ClusterState } from './cluster/cluster-state.js';
import type { PlannedCompute } from './compute/planned-compute.js';

const MIB = 1024 * 1024;

/** The HTTP geocoder adapters, by the API name `SVC_GEOCODER` gives. */
const HTTP_GEOCODERS: Readonly<Record<HttpGeocoderApi, (options: HttpGeocoderOptions) => Geocoder>> = {
  svc: createHttpGeocoder,
  nominatim: createNominatimGeocoder,
  photon: createPhotonGeocoder,
};

/** The geocoder the configuration selects. */
export function geocoderFor(config: Config): Geocoder {
  const g = config.geocoder;
  if (g.kind === 'embedded') return createEmbeddedGeocoder(createGazetteer(GAZETTEER));
  return HTTP_GEOCODERS[g.kind]({ baseUrl: g.url, timeoutMs: g.timeoutMs, userAgent: g.userAgent });
}

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
  content: (parts: ReportContentParts) => createReportContentSource({ historical: parts.historical, surroundings: parts.compute, clock: parts.clock }),
});

/** Options of `createServer`. */
export interface ServerOptions {
  /** The reports product's wiring; `DEFAULT_REPORTS_WIRING` unless given. */
  readonly reports?: ReportsWiring;
}

/** Messages of background work go to the application's logger once it exists. */
function forwardingLogger(target: () => FastifyBaseLogger | undefined): Logger {
  return {
    info: (obj: object, msg: string) => target()?.info(obj, msg),
    warn: (obj: object, msg: string) => target()?.warn(obj, msg),
    error: (obj: object, msg: string) => target()?.error(obj, msg),
  };
}

/** A built service: the application (ready, not yet listening), the parts it runs on, and its shutdown. */
export interface Server {
  readonly app: FastifyInstance;
  readonly config: Config;
  readonly db: Database;
  /** The key store over `db` (the operator CLI's view of the same table). */
  readonly keys: SqliteKeyStore;
  readonly compute: PlannedCompute;
  readonly historical: HistoricalService;
  readonly modelService: ModelServiceConnection;
  /** The map catalog and tiles (tiles drawn in the compute pool). */
  readonly map: MapService;
  /** Damage found in the datasets (at start-up and while serving); `/health` reports it. */
  readonly damage: DamageRegistry;
  /** The reports product: jobs, files, rendering threads. */
  readonly reports: ReportProduct;
  /** The shared state of a cluster node (`SVC_NATS_URL`); undefined on the embedded default. */
  readonly cluster: ClusterState | undefined;
  /**
   * Graceful shutdown, once: the server stops accepting and in-flight requests finish, then report jobs in hand are
   * queued again for the next start and the rendering threads close, then the model service stops,
   * computations still running (those whose clients timed out) settle and are cached, the compute pool closes, and
   * the database closes last.
   */
  close(): Promise<void>;
}

/** Builds the service for `config`; on a failure part-way, whatever was already started is closed again. */
export async function createServer(config: Config, options: ServerOptions = {}): Promise<Server> {
  const cleanups: (() => Promise<void> | void)[] = [];
  const undo = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const db = openDatabase(config.dbFile);
    cleanups.push(() => {
      db.close();
    });
    const geocoder = geocoderFor(config);
    let log: FastifyBaseLogger | undefined;
    // A cluster node keeps limits, report jobs and files, and the statistics cache in NATS JetStream.
    const cluster = clusterState(config, { log: forwardingLogger(() => log) });
    if (cluster !== undefined) cleanups.push(() => cluster.close());
    // The compute back end: the local pool (embedded default), or, on a cluster node, the NATS work queue over the
    // same link. Loaded here, not at the top: the pool, its kernels and the NATS client are only needed when serving.
    let compute: PlannedCompute;
    let closeCompute: () => Promise<void>;
    if (cluster === undefined || config.nats === undefined) {
      const { createLocalCompute } = await import('./compute/local-compute.js');
      compute = await createLocalCompute({ dataDir: config.dataDir, threads: config.computeThreads });
      closeCompute = () => compute.close();
    } else {
      const { startClusterCompute } = await import('./cluster/cluster-compute.js');
      const queue = startClusterCompute({ ...config, nats: config.nats }, { link: cluster.link, requesterId: cluster.nodeId });
      compute = queue.compute;
      closeCompute = () => queue.close();
    }
    cleanups.push(() => closeCompute());
    // Damage found in the datasets, shared with the embedded model service so each problem is logged once.
    const damage = new DamageRegistry({ now: systemClock.now });
    const historical = new HistoricalService({
      backend: compute,
      geocoder,
      // Hot locations from memory; every result is also kept in SQLite (shared with other processes, kept on restart),
      // or in a cluster in JetStream KV with one computation per location across the nodes.
      cache: new MemoryStatsCache(cluster?.statsCache ?? new SqliteStatsCache(db)),
      ...(cluster !== undefined ? { flights: cluster.flights } : {}),
      clock: systemClock,
      timeoutMs: config.upstreamTimeoutMs,
      computeVersion: `${config.version}+${KERNEL_VERSION}`,
      logger: { error: (obj, msg) => log?.error(obj, msg) },
      damage,
    });
    // Live and forecast data: the configured model service, or the embedded one over the data directory.
    const modelService = await connectModelService({
      url: config.modelServiceUrl, dataDir: config.dataDir, timeoutMs: config.modelServiceTimeoutMs, clock: systemClock, damage,
    });
    cleanups.push(() => modelService.close());
    const live = new LiveService({ model: modelService.client, geocoder, clock: systemClock });
    const keys = new SqliteKeyStore(db);
    // Presented keys are looked up in SQLite at most once per KEY_CACHE_TTL_MS each (operator changes apply within it).
    const lookup = new CachedKeyLookup(keys, { now: systemClock.now });
    const wiring = options.reports ?? DEFAULT_REPORTS_WIRING;
    const reports = await createReportProduct({
      config, db, geocoder, clock: systemClock,
      content: wiring.content({ historical, compute, geocoder, clock: systemClock }),
      keyById: (id) => keys.findById(id),
      ...(wiring.renderWorker !== undefined ? { renderWorker: wiring.renderWorker } : {}),
      logger: forwardingLogger(() => log),
      ...(cluster !== undefined ? { cluster: { store: cluster.jobs, files: cluster.files, tasks: cluster.tasks } } : {}),
    });
    cleanups.push(() => reports.close());
    const map = new MapService({
      model: modelService.client,
      keys: lookup,
      clock: systemClock,
      renderer: poolRenderer((task) => compute.runTask(task)),
      secret: await loadTileSecret(config.tileSecret, config.dataDir),
      sliceCacheBytes: config.mapSliceCacheMb * MIB,
      tileCacheBytes: config.mapTileCacheMb * MIB,
    });
    const app = await buildApp({
      config, keys: lookup, geocoder, historical, live, map, clock: systemClock, damage, reports: reports.service,
      ...(cluster !== undefined ? { rateLimiter: cluster.rateLimiter } : {}),
    });
    log = app.log;
    await checkDatasets(config.dataDir, compute, damage);
    await app.ready();
    reports.start();

    let closing: Promise<void> | undefined;
    const shutdown = async () => {
      await app.close();
      await reports.close();
      await modelService.close();
      await historical.drain();
      await closeCompute();
      await cluster?.close();
      db.close();
    };
    return { app, config, db, keys, compute, historical, modelService, map, damage, reports, cluster, close: () => (closing ??= shutdown()) };
  } catch (err) {
    await undo();
    throw err;
  }
}
