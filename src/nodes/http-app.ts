/**
 * The application factory: one Fastify instance with every endpoint under `/v1`, one encapsulated plugin per product
 * and shared infrastructure (request id, problem documents, auth and rate limits, CORS, OpenAPI). Dependencies are
 * passed in, so the same factory serves `svc serve` and the tests.
 */
import type { Server as HttpServer, RequestListener } from 'node:http';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.js';
import { cacheBudgets } from '../config/memory-budget.js';
import type { Geocoder } from '../geocode/geocoder.js';
import type { KeyLookup } from '../keys/key-types.js';
import { MemoryRateLimiter, type RateLimiter } from '../keys/rate-limiter.js';
import { systemClock, type Clock } from '../util/clock.js';
import type { HistoricalService } from '../services/historical-service.js';
import type { AreaService } from '../area/area-service.js';
import type { LiveService } from '../services/live-service.js';
import type { ReportService } from '../reports/delivery/report-service.js';
import type { MapService } from '../map/map-service.js';
import type { DamageRegistry } from '../store/damage-registry.js';
import { decimalNumbersSchemaController } from '../api/decimal-numbers.js';
import { DocsLocation } from '../api/docs-location.js';
import { docsRoutes } from '../reference/docs-routes.js';
import { clientErrorHandler, connectHandler, httpServerFactory } from '../api/http-server.js';
import { openApiPlugin, openApiRoute } from '../api/openapi.js';
import { documentPublisher } from '../reference/published-document.js';
import { authPlugin } from '../api/plugins/auth.js';
import { corsPlugin } from '../api/plugins/cors.js';
import { hostHeaderPlugin } from '../api/plugins/host-header.js';
import { problemsPlugin, sendProblem } from '../api/plugins/problems.js';
import { generateRequestId, requestIdPlugin } from '../api/plugins/request-id.js';
import { problemFromError } from '../api/problems.js';
import { requestLogSerializer } from '../api/redact-keys.js';
import { citiesRoutes } from '../api/routes/cities.js';
import { geocodeRoutes } from '../api/routes/geocode.js';
import { healthRoutes } from '../api/routes/health.js';
import { historicalRoutes } from '../api/routes/historical.js';
import { areaRoutes } from '../api/routes/area.js';
import { batchRoutes } from '../api/routes/batch.js';
import { BATCH_PARALLELISM } from '../batch/batch-limits.js';
import { BatchService } from '../batch/batch-service.js';
import type { BatchJobService } from '../batch/batch-jobs.js';
import { WorkGate } from '../util/work-gate.js';
import { keyRoutes } from '../api/routes/key.js';
import { liveRoutes } from '../api/routes/live.js';
import { reportsRoutes } from '../api/routes/reports.js';
import { mapRoutes } from '../api/routes/map.js';
import { defaultMapPageOptions, mapPageRoutes, type MapPageOptions } from '../api/routes/map-page.js';
import { scalesRoutes } from '../api/routes/scales.js';
import type { FastPathStats } from '../api/fast-path.js';
import { StatsFastPath } from '../api/stats-fast-path.js';
import { StatsResponseCache } from '../services/stats-responses.js';
import { TileFastPath } from '../api/tile-fast-path.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Counters of the stats fast path (src/api/stats-fast-path.ts); zeros when it is off. */
    statsFastPath(): FastPathStats;
    /** Counters of the tile fast path (src/api/tile-fast-path.ts); zeros when it is off. */
    tileFastPath(): FastPathStats;
    /** Where the documentation lives (problem types, OpenAPI, the banner); resolved once the server listens. */
    readonly docs: DocsLocation;
  }
}

/** Everything the application needs; the caller owns these and closes them after the app. */
export interface AppDeps {
  readonly config: Config;
  /** Look-up of presented API keys (SqliteKeyStore in production). */
  readonly keys: KeyLookup;
  readonly geocoder: Geocoder;
  /** Historical statistics over the compute back end and the persistent cache. */
  readonly historical: HistoricalService;
  /** Statistics for areas; without it, POST /historical/area is not served. */
  readonly area?: AreaService;
  /** Batches of locations over `historical`; defaults to one with its own work gate. */
  readonly batch?: BatchService;
  /** Asynchronous batch jobs; without it, /historical/jobs is not served. */
  readonly batchJobs?: BatchJobService;
  /** Live and forecast records from the model service; without it, /realtime and /forecast are not served. */
  readonly live?: LiveService;
  /** Report jobs, their status and files; without it, /reports is not served. */
  readonly reports?: ReportService;
  /** The map catalog and tiles; without it, /map… is not served. */
  readonly map?: MapService;
  /** Where the map page's files and MapLibre are (default: public/map and the installed maplibre-gl); needs `map`. */
  readonly mapPage?: MapPageOptions;
  /** Answer drawn tiles before routing (src/api/tile-fast-path.ts); default true. Tests turn it off to compare. */
  readonly tileFastPath?: boolean;
  /** Defaults to the system clock. */
  readonly clock?: Clock;
  /** Defaults to a fresh in-memory limiter (one process). */
  readonly rateLimiter?: RateLimiter;
  /** Damage found in the datasets, reported by `/health`; it is logged to the application's logger. */
  readonly damage?: DamageRegistry;
  /** Where the JSON log lines go; stdout by default. */
  readonly logStream?: { write(line: string): void };
}


/** A batch service of its own over `historical`: its gate admits two batches' worth of locations at once. */
export function defaultBatchService(historical: HistoricalService): BatchService {
  return new BatchService({ historical, gate: new WorkGate(2 * BATCH_PARALLELISM), parallelism: BATCH_PARALLELISM });
}

/** Builds the application (not yet listening). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const clock = deps.clock ?? systemClock;
  // The server's own /docs unless a docs URL is configured; its address is asked once the app (and server) exist.
  let server: HttpServer | undefined;
  const docs = new DocsLocation(config.docsUrl, { host: config.host, port: config.port }, () => server?.address() ?? null);
  const limiter = deps.rateLimiter ?? new MemoryRateLimiter();
  // Complete answers of repeated statistics requests, replayed before routing (off when given no memory): the
  // historical service's store when it keeps one (batch locations replay from it too), else one of the app's own.
  const answers = config.statsResponseCacheMb === 0 ? undefined : (deps.historical.answers ?? new StatsResponseCache(cacheBudgets(config).statsResponses));
  const fastPath = answers && new StatsFastPath({ answers, keys: deps.keys, limiter, clock, limits: config.limits });
  // Drawn map tiles, answered before routing too.
  const tileFastPath = deps.map !== undefined && deps.tileFastPath !== false ? new TileFastPath(deps.map) : undefined;
  const fastPaths = [fastPath, tileFastPath].filter((p) => p !== undefined);
  const timeouts = { headersMs: config.headersTimeoutMs, requestMs: config.requestTimeoutMs, keepAliveMs: config.keepAliveTimeoutMs };
  const app = Fastify({
    // One server factory with or without the fast paths: the same time-outs and raw answers either way. Each path
    // hands what it does not answer to the next, the last to the application.
    serverFactory: httpServerFactory(timeouts, fastPaths.length === 0 ? undefined : (next) =>
      fastPaths.reduceRight<RequestListener>((rest, path) => (req, res) => path.handle(req, res, rest), next)),
    logger:
      config.logLevel === 'silent'
        ? false
        : { level: config.logLevel, serializers: { req: requestLogSerializer }, ...(deps.logStream ? { stream: deps.logStream } : {}) },
    genReqId: generateRequestId,
    requestIdHeader: false,
    bodyLimit: config.bodyLimitBytes,
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    clientErrorHandler: clientErrorHandler(() => docs.url),
    // Errors raised while routing (bad percent-encoding, over-long path parameters) become problems too.
    frameworkErrors: (err: FastifyError, _request, reply) => {
      const outcome = problemFromError(err);
      void sendProblem(reply, docs.url, outcome.code, outcome.detail, outcome.headers);
    },
    // Numbers are decimal and finite before Ajv coerces them (src/api/decimal-numbers.ts).
    schemaController: decimalNumbersSchemaController(),
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: true, useDefaults: true, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  server = app.server;
  app.decorate('docs', docs);
  app.server.on('connect', connectHandler(() => docs.url, app.log));

  // Graceful shutdown: close() ends the connections idle when it starts, but a keep-alive connection whose request is
  // still in flight would keep it waiting for the keep-alive time-out (SVC_KEEP_ALIVE_TIMEOUT_MS) after the response.
  // Answers sent while closing carry `Connection: close`, so such a connection ends with its response.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    fastPath?.close();
    tileFastPath?.close();
    done();
  });
  fastPath?.attachLogger(app.log);
  tileFastPath?.attachLogger(app.log);
  deps.damage?.attachLogger(app.log);
  app.decorate('statsFastPath', () => fastPath?.stats() ?? { served: 0, passed: 0 });
  app.decorate('tileFastPath', () => tileFastPath?.stats() ?? { served: 0, passed: 0 });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  await app.register(requestIdPlugin);
  // Before the problems plugin: the not-found handler it sets takes the hooks registered until then.
  await app.register(hostHeaderPlugin);
  await app.register(problemsPlugin, { docs });
  await app.register(corsPlugin);
  await app.register(openApiPlugin, { version: config.version });
  await app.register(authPlugin, { keys: deps.keys, limiter, clock, limits: config.limits });

  // The OpenAPI document with its examples, as published for a docs URL (shared by /v1/openapi.json and the pages).
  const publish = documentPublisher(app);

  await app.register(
    async (v1) => {
      await v1.register(healthRoutes, { version: config.version, clock, ...(deps.damage ? { damage: deps.damage } : {}) });
      await v1.register(citiesRoutes, { generatedUtc: new Date(clock.now()).toISOString() });
      await v1.register(scalesRoutes);
      await v1.register(keyRoutes, { limits: config.limits });
      await v1.register(geocodeRoutes, { geocoder: deps.geocoder });
      await v1.register(historicalRoutes, { historical: deps.historical, ...(answers ? { answers } : {}) });
      if (deps.area !== undefined) await v1.register(areaRoutes, { area: deps.area });
      await v1.register(batchRoutes, {
        batch: deps.batch ?? defaultBatchService(deps.historical), limiter, clock, limits: config.limits,
        ...(deps.batchJobs ? { jobs: deps.batchJobs } : {}),
        ...(deps.area ? { area: deps.area } : {}),
      });
      if (deps.live !== undefined) await v1.register(liveRoutes, { live: deps.live });
      if (deps.reports !== undefined) await v1.register(reportsRoutes, { reports: deps.reports });
      if (deps.map !== undefined) await v1.register(mapRoutes, { map: deps.map, publicUrl: config.publicUrl });
      await v1.register(openApiRoute, { docs, publish });
    },
    { prefix: '/v1' },
  );
  await app.register(docsRoutes, { docs, publish });
  if (deps.map !== undefined) await app.register(mapPageRoutes, deps.mapPage ?? defaultMapPageOptions(config.publicUrl));
  return app;
}
