/**
 * Service configuration: read once from the environment (`SVC_*` variables), validated, defaults filled, frozen.
 * Nothing else in the code base reads `process.env`; everything receives a `Config` (or the part it needs).
 * The variables are documented in docs/operations.md.
 */
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ValidationError } from './errors.js';

/** The HTTP geocoder APIs: this service's own contract, Nominatim, Photon (`SVC_GEOCODER=<api>:<url>`). */
export const HTTP_GEOCODER_APIS = ['svc', 'nominatim', 'photon'] as const;
export type HttpGeocoderApi = (typeof HTTP_GEOCODER_APIS)[number];

/** Which geocoder answers `/geocode` and address look-ups: the embedded gazetteer or an HTTP geocoder. */
export type GeocoderConfig =
  | { readonly kind: 'embedded' }
  | { readonly kind: HttpGeocoderApi; readonly url: string; readonly timeoutMs: number; readonly userAgent: string };

/** Default per-key limits; a key's own value, when set by the operator, wins. */
export interface DefaultLimits {
  /** Requests per minute for secret (`svc_sk_`) keys. */
  readonly secretPerMin: number;
  /** Requests per minute for publishable (`svc_pk_`) keys. */
  readonly publishablePerMin: number;
  /** Reports per UTC day for any key. */
  readonly reportsPerDay: number;
}

/** The NATS JetStream cluster a node joins (`SVC_NATS_URL`); absent: the embedded default, one process, no NATS. */
export interface NatsConfig {
  /** `nats://host:port`, or several separated by commas. */
  readonly url: string;
  /** How long a worker may hold a task without acknowledging it or reporting progress before it is redelivered, ms. */
  readonly ackWaitMs: number;
  /** Deliveries of a task before it fails for good. */
  readonly maxDeliver: number;
}

/** The whole, validated configuration of one service process. */
export interface Config {
  readonly port: number;
  readonly host: string;
  /** Directory holding the Zarr datasets. */
  readonly dataDir: string;
  /** SQLite file for keys, caches and jobs (`:memory:` allowed, for tests). */
  readonly dbFile: string;
  /**
   * Published documentation root, no trailing slash; problem `type` = `{docsUrl}/errors#<code>`. Undefined (the
   * default): the service's own `/docs`, an absolute URL built from the address it listens on (src/api/docs-location.ts).
   */
  readonly docsUrl: string | undefined;
  /** Version string reported by `/health` (package.json `version`). */
  readonly version: string;
  /** How long a request waits for the compute back end before answering 504 (the work goes on). */
  readonly upstreamTimeoutMs: number;
  readonly limits: DefaultLimits;
  readonly geocoder: GeocoderConfig;
  /** Base URL of the model service for live and forecast data; undefined until one is configured. */
  readonly modelServiceUrl: string | undefined;
  /** Deadline of one model-service call, retries included; past it /realtime and /forecast answer 504. */
  readonly modelServiceTimeoutMs: number;
  /** Compute worker threads. */
  readonly computeThreads: number;
  /** Largest accepted request body, bytes; larger bodies answer 413. */
  readonly bodyLimitBytes: number;
  /** Time a client has to send a request's headers, ms; past it the server answers 408 and closes the connection. */
  readonly headersTimeoutMs: number;
  /** Time a client has to send a whole request, body included, ms (at least `headersTimeoutMs`); past it 408. */
  readonly requestTimeoutMs: number;
  /** How long a keep-alive connection may stay idle between requests, ms; then it is closed. */
  readonly keepAliveTimeoutMs: number;
  /** Memory for complete `/historical/stats` answers replayed by the stats fast path, MiB; 0 turns it off. */
  readonly statsResponseCacheMb: number;
  /**
   * Secret that signs map tile URLs (at least 32 characters); undefined: one generated once and kept in
   * `<dataDir>/tile-secret` (src/map/tile-secret.ts). Several API nodes must share one.
   */
  readonly tileSecret: string | undefined;
  /** Public origin of the API (`https://api.example.org`, optionally with a path prefix) for absolute tile URLs in TileJSON; undefined: each request's own. */
  readonly publicUrl: string | undefined;
  /** Memory for encoded map tiles, MiB. */
  readonly mapTileCacheMb: number;
  /** Memory for hourly grid slices behind map tiles, MiB. */
  readonly mapSliceCacheMb: number;
  /** Pino log level (`fatal` … `trace`, or `silent`). */
  readonly logLevel: string;
  /** Directory of the report files (`<job id>.html`, `<job id>.pdf`); default `<dataDir>/reports`. */
  readonly reportsDir: string;
  /** Report jobs worked on at the same time. */
  readonly reportConcurrency: number;
  /** Threads rendering reports (HTML and PDF), apart from the compute threads. */
  readonly reportRenderThreads: number;
  /** Attempts of a report job before a transient failure makes it fail. */
  readonly reportMaxAttempts: number;
  /** How long a status poll waits for the PDF rendering it started, ms (0: answer `pdf_pending` at once). */
  readonly reportPdfWaitMs: number;
  /** The cluster this node joins; undefined: the embedded default. */
  readonly nats: NatsConfig | undefined;
}

/** Environment variable names, one per setting (documented in docs/operations.md). */
export const ENV_VARS = {
  port: 'SVC_PORT',
  host: 'SVC_HOST',
  dataDir: 'SVC_DATA_DIR',
  dbFile: 'SVC_DB',
  docsUrl: 'SVC_DOCS_URL',
  upstreamTimeoutMs: 'SVC_UPSTREAM_TIMEOUT_MS',
  secretPerMin: 'SVC_RATE_SK_PER_MIN',
  publishablePerMin: 'SVC_RATE_PK_PER_MIN',
  reportsPerDay: 'SVC_REPORTS_PER_DAY',
  geocoder: 'SVC_GEOCODER',
  geocoderTimeoutMs: 'SVC_GEOCODER_TIMEOUT_MS',
  geocoderUserAgent: 'SVC_GEOCODER_USER_AGENT',
  modelServiceUrl: 'SVC_MODEL_SERVICE_URL',
  modelServiceTimeoutMs: 'SVC_MODEL_SERVICE_TIMEOUT_MS',
  computeThreads: 'SVC_COMPUTE_THREADS',
  bodyLimitBytes: 'SVC_BODY_LIMIT_BYTES',
  headersTimeoutMs: 'SVC_HEADERS_TIMEOUT_MS',
  requestTimeoutMs: 'SVC_REQUEST_TIMEOUT_MS',
  keepAliveTimeoutMs: 'SVC_KEEP_ALIVE_TIMEOUT_MS',
  statsResponseCacheMb: 'SVC_STATS_RESPONSE_CACHE_MB',
  tileSecret: 'SVC_TILE_SECRET',
  publicUrl: 'SVC_PUBLIC_URL',
  mapTileCacheMb: 'SVC_MAP_TILE_CACHE_MB',
  mapSliceCacheMb: 'SVC_MAP_SLICE_CACHE_MB',
  logLevel: 'SVC_LOG_LEVEL',
  reportsDir: 'SVC_REPORTS_DIR',
  reportConcurrency: 'SVC_REPORT_CONCURRENCY',
  reportRenderThreads: 'SVC_REPORT_RENDER_THREADS',
  reportMaxAttempts: 'SVC_REPORT_MAX_ATTEMPTS',
  reportPdfWaitMs: 'SVC_REPORT_PDF_WAIT_MS',
  natsUrl: 'SVC_NATS_URL',
  natsAckWaitMs: 'SVC_NATS_ACK_WAIT_MS',
  natsMaxDeliver: 'SVC_NATS_MAX_DELIVER',
} as const;

/** Shortest accepted `SVC_TILE_SECRET`, characters (a generated secret has 43: 256 random bits in base64url). */
export const MIN_TILE_SECRET_CHARS = 32;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Settings a caller may override after the environment is read (CLI flags, tests); validated like the rest. */
export type ConfigOverrides = Partial<Omit<Config, 'limits' | 'geocoder'>> & {
  readonly limits?: Partial<DefaultLimits>;
  readonly geocoder?: GeocoderConfig;
};

function fail(name: string, rule: string, value: unknown): never {
  throw new ValidationError(`Invalid configuration: ${name} ${rule} (got ${JSON.stringify(value)}).`);
}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^-?\d+$/.test(raw.trim())) fail(name, 'must be an integer', raw);
  return Number(raw.trim());
}

function checkInt(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) fail(name, `must be an integer from ${min} to ${max}`, value);
  return value;
}

function checkHttpUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(name, 'must be an absolute http(s) URL', value);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(name, 'must be an absolute http(s) URL', value);
  if (url.search !== '' || url.hash !== '') fail(name, 'must not carry a query or fragment', value);
  return value.replace(/\/+$/, '');
}

/** The `version` of the nearest package.json above this module (works from src/ and from dist/src/). */
function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { version?: unknown };
      if (typeof pkg.version === 'string') return pkg.version;
    }
    const parent = dirname(dir);
    if (parent === dir) return '0.0.0';
    dir = parent;
  }
}

/** A header value the HTTP client will send as is: printable ASCII, not blank. */
const HEADER_VALUE = /^[\x20-\x7e]+$/;

/**
 * `SVC_GEOCODER`: `embedded`, a base URL (this service's geocoder contract), or `<api>:<base URL>` with api one of
 * `HTTP_GEOCODER_APIS` (`nominatim:https://nominatim.example.org`). The User-Agent defaults to the service's name and
 * version, with the documentation URL when `SVC_DOCS_URL` is set, which identifies it as Nominatim's usage policy asks.
 */
function geocoderFrom(env: NodeJS.ProcessEnv, version: string, docsUrl: string | undefined): GeocoderConfig {
  const raw = (env[ENV_VARS.geocoder] ?? 'embedded').trim();
  if (raw === '' || raw === 'embedded') return { kind: 'embedded' };
  const prefixed = /^([a-z]+):(https?:.*)$/i.exec(raw);
  const api = prefixed ? prefixed[1].toLowerCase() : 'svc';
  if (!(HTTP_GEOCODER_APIS as readonly string[]).includes(api)) {
    fail(ENV_VARS.geocoder, `must be embedded, a URL, or ${HTTP_GEOCODER_APIS.map((a) => `${a}:<url>`).join(', ')}`, raw);
  }
  const url = checkHttpUrl(ENV_VARS.geocoder, prefixed ? prefixed[2] : raw);
  return {
    kind: api as HttpGeocoderApi,
    url,
    timeoutMs: intFrom(env, ENV_VARS.geocoderTimeoutMs, 5_000),
    // A configured docs URL is the public address of this service; the default (the server's own /docs, a local
    // address) would tell a geocoder nothing, so the User-Agent then names only the service and version.
    userAgent: env[ENV_VARS.geocoderUserAgent]?.trim() || `svc-api/${version}${docsUrl !== undefined ? ` (+${docsUrl})` : ''}`,
  };
}

/** `SVC_NATS_URL` and its limits; undefined when the variable is unset or empty. */
function natsFrom(env: NodeJS.ProcessEnv): NatsConfig | undefined {
  const url = env[ENV_VARS.natsUrl]?.trim();
  if (!url) return undefined;
  return { url, ackWaitMs: intFrom(env, ENV_VARS.natsAckWaitMs, 30_000), maxDeliver: intFrom(env, ENV_VARS.natsMaxDeliver, 3) };
}

function validate(config: Config): Config {
  checkInt(ENV_VARS.port, config.port, 0, 65_535);
  if (config.host.trim() === '') fail(ENV_VARS.host, 'must not be empty', config.host);
  if (config.dataDir.trim() === '') fail(ENV_VARS.dataDir, 'must not be empty', config.dataDir);
  if (config.dbFile.trim() === '') fail(ENV_VARS.dbFile, 'must not be empty', config.dbFile);
  if (config.docsUrl !== undefined) checkHttpUrl(ENV_VARS.docsUrl, config.docsUrl);
  checkInt(ENV_VARS.upstreamTimeoutMs, config.upstreamTimeoutMs, 1, 3_600_000);
  checkInt(ENV_VARS.secretPerMin, config.limits.secretPerMin, 1, 1_000_000);
  checkInt(ENV_VARS.publishablePerMin, config.limits.publishablePerMin, 1, 1_000_000);
  checkInt(ENV_VARS.reportsPerDay, config.limits.reportsPerDay, 0, 1_000_000);
  if (config.geocoder.kind !== 'embedded') {
    if (!(HTTP_GEOCODER_APIS as readonly string[]).includes(config.geocoder.kind)) {
      fail(ENV_VARS.geocoder, `must name one of ${HTTP_GEOCODER_APIS.join(', ')}`, config.geocoder.kind);
    }
    checkHttpUrl(ENV_VARS.geocoder, config.geocoder.url);
    checkInt(ENV_VARS.geocoderTimeoutMs, config.geocoder.timeoutMs, 1, 600_000);
    if (!HEADER_VALUE.test(config.geocoder.userAgent)) {
      fail(ENV_VARS.geocoderUserAgent, 'must be printable ASCII text', config.geocoder.userAgent);
    }
  }
  if (config.modelServiceUrl !== undefined) checkHttpUrl(ENV_VARS.modelServiceUrl, config.modelServiceUrl);
  checkInt(ENV_VARS.modelServiceTimeoutMs, config.modelServiceTimeoutMs, 1, 600_000);
  checkInt(ENV_VARS.computeThreads, config.computeThreads, 1, 256);
  checkInt(ENV_VARS.bodyLimitBytes, config.bodyLimitBytes, 1_024, 100 * 1024 * 1024);
  // Never 0: Node reads 0 as "no time-out", which lets a silent client hold a connection forever.
  checkInt(ENV_VARS.headersTimeoutMs, config.headersTimeoutMs, 1, 600_000);
  checkInt(ENV_VARS.requestTimeoutMs, config.requestTimeoutMs, 1, 3_600_000);
  if (config.headersTimeoutMs > config.requestTimeoutMs) {
    fail(ENV_VARS.headersTimeoutMs, `must not exceed ${ENV_VARS.requestTimeoutMs} (${config.requestTimeoutMs})`, config.headersTimeoutMs);
  }
  checkInt(ENV_VARS.keepAliveTimeoutMs, config.keepAliveTimeoutMs, 1, 600_000);
  checkInt(ENV_VARS.statsResponseCacheMb, config.statsResponseCacheMb, 0, 65_536);
  if (config.tileSecret !== undefined && (config.tileSecret.length < MIN_TILE_SECRET_CHARS || !HEADER_VALUE.test(config.tileSecret))) {
    // The value itself is never repeated in the message: it is a secret.
    throw new ValidationError(`Invalid configuration: ${ENV_VARS.tileSecret} must be at least ${MIN_TILE_SECRET_CHARS} printable ASCII characters.`);
  }
  if (config.publicUrl !== undefined) checkHttpUrl(ENV_VARS.publicUrl, config.publicUrl);
  checkInt(ENV_VARS.mapTileCacheMb, config.mapTileCacheMb, 1, 65_536);
  checkInt(ENV_VARS.mapSliceCacheMb, config.mapSliceCacheMb, 1, 65_536);
  if (!LOG_LEVELS.includes(config.logLevel)) fail(ENV_VARS.logLevel, `must be one of ${LOG_LEVELS.join(', ')}`, config.logLevel);
  if (config.reportsDir.trim() === '') fail(ENV_VARS.reportsDir, 'must not be empty', config.reportsDir);
  checkInt(ENV_VARS.reportConcurrency, config.reportConcurrency, 1, 64);
  checkInt(ENV_VARS.reportRenderThreads, config.reportRenderThreads, 1, 64);
  checkInt(ENV_VARS.reportMaxAttempts, config.reportMaxAttempts, 1, 100);
  checkInt(ENV_VARS.reportPdfWaitMs, config.reportPdfWaitMs, 0, 60_000);
  if (config.nats !== undefined) {
    for (const server of config.nats.url.split(',')) {
      if (!/^(nats|tls):\/\/[^\s/]+$/.test(server.trim())) fail(ENV_VARS.natsUrl, 'must be nats://host:port (several separated by commas)', config.nats.url);
    }
    checkInt(ENV_VARS.natsAckWaitMs, config.nats.ackWaitMs, 1_000, 3_600_000);
    checkInt(ENV_VARS.natsMaxDeliver, config.nats.maxDeliver, 1, 100);
  }
  return config;
}

/** Reads, validates and freezes the configuration; throws a ValidationError naming the offending variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: ConfigOverrides = {}): Config {
  const dataDir = resolve(overrides.dataDir ?? (env[ENV_VARS.dataDir]?.trim() || 'data/demo'));
  const modelUrl = env[ENV_VARS.modelServiceUrl]?.trim();
  const version = packageVersion();
  const docsUrl = env[ENV_VARS.docsUrl]?.trim().replace(/\/+$/, '') || undefined;
  const fromEnv: Config = {
    port: intFrom(env, ENV_VARS.port, 8080),
    host: env[ENV_VARS.host]?.trim() || '127.0.0.1',
    dataDir,
    dbFile: env[ENV_VARS.dbFile]?.trim() || join(dataDir, 'svc.sqlite'),
    docsUrl,
    version,
    upstreamTimeoutMs: intFrom(env, ENV_VARS.upstreamTimeoutMs, 30_000),
    limits: {
      secretPerMin: intFrom(env, ENV_VARS.secretPerMin, 600),
      publishablePerMin: intFrom(env, ENV_VARS.publishablePerMin, 120),
      reportsPerDay: intFrom(env, ENV_VARS.reportsPerDay, 50),
    },
    geocoder: geocoderFrom(env, version, docsUrl),
    modelServiceUrl: modelUrl ? modelUrl : undefined,
    modelServiceTimeoutMs: intFrom(env, ENV_VARS.modelServiceTimeoutMs, 10_000),
    computeThreads: intFrom(env, ENV_VARS.computeThreads, availableParallelism()),
    bodyLimitBytes: intFrom(env, ENV_VARS.bodyLimitBytes, 64 * 1024),
    headersTimeoutMs: intFrom(env, ENV_VARS.headersTimeoutMs, 10_000),
    requestTimeoutMs: intFrom(env, ENV_VARS.requestTimeoutMs, 30_000),
    keepAliveTimeoutMs: intFrom(env, ENV_VARS.keepAliveTimeoutMs, 72_000),
    statsResponseCacheMb: intFrom(env, ENV_VARS.statsResponseCacheMb, 32),
    tileSecret: env[ENV_VARS.tileSecret] || undefined,
    publicUrl: env[ENV_VARS.publicUrl]?.trim().replace(/\/+$/, '') || undefined,
    mapTileCacheMb: intFrom(env, ENV_VARS.mapTileCacheMb, 64),
    mapSliceCacheMb: intFrom(env, ENV_VARS.mapSliceCacheMb, 128),
    logLevel: env[ENV_VARS.logLevel]?.trim() || 'info',
    reportsDir: resolve(env[ENV_VARS.reportsDir]?.trim() || join(dataDir, 'reports')),
    reportConcurrency: intFrom(env, ENV_VARS.reportConcurrency, 2),
    reportRenderThreads: intFrom(env, ENV_VARS.reportRenderThreads, 1),
    reportMaxAttempts: intFrom(env, ENV_VARS.reportMaxAttempts, 5),
    reportPdfWaitMs: intFrom(env, ENV_VARS.reportPdfWaitMs, 1_000),
    nats: natsFrom(env),
  };
  const given = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) as ConfigOverrides;
  const limits = Object.fromEntries(Object.entries(given.limits ?? {}).filter(([, v]) => v !== undefined));
  const merged: Config = {
    ...fromEnv,
    ...given,
    dataDir,
    limits: { ...fromEnv.limits, ...limits },
    geocoder: given.geocoder ?? fromEnv.geocoder,
  };
  const config = validate(merged);
  return Object.freeze({
    ...config,
    docsUrl: config.docsUrl?.replace(/\/+$/, ''),
    publicUrl: config.publicUrl?.replace(/\/+$/, ''),
    limits: Object.freeze({ ...config.limits }),
    geocoder: Object.freeze({ ...config.geocoder }),
    nats: config.nats === undefined ? undefined : Object.freeze({ ...config.nats }),
  });
}
