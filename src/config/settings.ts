/**
 * The configuration as one table: every setting of the service with its environment variable, its kind of value
 * (parsing and accepted values), its default and a one-line meaning. The `Config` type, `loadConfig`'s parsing and
 * checks, `ENV_VARS` and the configuration table of docs/operations.md (test/docs/configuration-table.test.ts) all
 * derive from it, so a setting is added or changed here and nowhere else.
 *
 * The key of an entry is its name in `Config`, except for the few config.ts gathers into `limits`, `geocoder` and
 * `nats` (`natsAckWaitMs` is `nats.ackWaitMs`). The order is the order of reading, of the checks and of the docs table.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { geocoderChoice, type GeocoderChoice } from './geocoder-kind.js';
import { httpUrl, integer, natsServers, oneOf, optional, printableText, secret, text, type Kind } from './kinds.js';

/** What derived defaults derive from: the data directory (after its override), the docs URL, the package version. */
export interface DefaultContext {
  readonly dataDir: string;
  readonly docsUrl: string | undefined;
  readonly version: string;
}

/**
 * Conditions under which a setting is read at all (otherwise its variable is ignored, whatever it holds): each looks
 * at the value of the setting `on`, which comes earlier in the table.
 */
export const CONDITIONS = {
  httpGeocoder: {
    on: 'geocoder',
    holds: (choice: GeocoderChoice) => choice.kind !== 'embedded',
    doc: 'read only when `SVC_GEOCODER` names an HTTP geocoder',
  },
  nats: {
    on: 'natsUrl',
    holds: (url: string | undefined) => url !== undefined,
    doc: 'read only when `SVC_NATS_URL` is set',
  },
} as const;

/** One setting. `T` is its value type, `undefined` included when it may stay unset. */
export interface Setting<T> {
  /** The environment variable. */
  readonly env: string;
  readonly kind: Kind<T>;
  /** The value when the variable is unset or blank: fixed, or derived (from the data directory, …). */
  readonly default: T | ((context: DefaultContext) => T);
  /** The default as the docs state it; needed where the value alone does not say it (derived, unset, machine-bound). */
  readonly defaultDoc?: string;
  /** What the setting does, one line of Markdown for the docs table. */
  readonly doc: string;
  /** Read only under this condition. */
  readonly onlyWith?: keyof typeof CONDITIONS;
  /** The key of another setting this one must not exceed. */
  readonly atMost?: string;
}

/** An entry of the table, its value type inferred from its kind and default. */
const setting = <T>(entry: Setting<T>): Setting<T> => entry;

/** Shortest accepted `SVC_TILE_SECRET`, characters (a generated secret has 43: 256 random bits in base64url). */
const MIN_TILE_SECRET_CHARS = 32;

/** Smallest accepted `SVC_MEMORY_BUDGET_MB`: 4 MiB for each sixteenth of it a cache gets. */
const MIN_MEMORY_BUDGET_MB = 64;
/** Default `SVC_MEMORY_BUDGET_MB`. */
export const DEFAULT_MEMORY_BUDGET_MB = 512;

/** The log levels of pino, most severe first; `silent` logs nothing. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Every setting, by its key. */
export const SETTINGS = {
  port: setting({ env: 'SVC_PORT', kind: integer(0, 65_535), default: 8080, doc: 'TCP port (`--port`)' }),
  host: setting({
    env: 'SVC_HOST', kind: text({ allowed: 'a host name or address' }), default: '127.0.0.1',
    doc: 'listen address (`--host`); `0.0.0.0` to listen on every interface',
  }),
  dataDir: setting({
    env: 'SVC_DATA_DIR', kind: text({ path: true, allowed: 'a directory' }), default: 'data/demo', defaultDoc: '`./data/demo`',
    doc: 'directory of the Zarr datasets (`--data`)',
  }),
  dbFile: setting({
    env: 'SVC_DB', kind: text({ allowed: 'a file; `:memory:` keeps it in memory' }), default: (c) => join(c.dataDir, 'svc.sqlite'), defaultDoc: '`$SVC_DATA_DIR/svc.sqlite`',
    doc: 'SQLite database: keys, the statistics cache, report jobs and quotas (`--db`)',
  }),
  docsUrl: setting({
    env: 'SVC_DOCS_URL', kind: httpUrl({ stripSlashes: true }), default: undefined, defaultDoc: "unset: the server's own `/docs`",
    doc: "published documentation root; problem `type` = `{docs URL}/errors#<code>`; the service serves the pages at this URL's path. Unset, it is `http://{host}:{port}/docs` of the address the server listens on (`localhost` for `0.0.0.0` or `::`); set it when clients reach the service under another name",
  }),
  upstreamTimeoutMs: setting({
    env: 'SVC_UPSTREAM_TIMEOUT_MS', kind: integer(1, 3_600_000), default: 30_000,
    doc: 'how long a request waits for the compute back end before answering 504 (the work goes on)',
  }),
  areaSyncCells: setting({
    env: 'SVC_AREA_SYNC_CELLS', kind: integer(1, 4_000_000), default: 100_000, // AREA_JOB_CELL_LIMIT, AREA_SYNC_CELL_LIMIT (src/area/area-limits.ts; test/area/area-service.test.ts holds them equal)
    doc: 'grid cells the features of one `POST /historical/area` may touch together; a larger area is refused (400) and goes to `POST /historical/jobs` ([area.md](area.md))',
  }),
  jobsPerKey: setting({
    env: 'SVC_JOBS_PER_KEY', kind: integer(1, 1_000), default: 4, // DEFAULT_JOBS_PER_KEY (src/batch/batch-jobs.ts)
    doc: 'batch and area jobs one key may have open (queued or running) at once; one more is refused with 429 `rate_limited` ([batch.md](batch.md))',
  }),
  secretPerMin: setting({ env: 'SVC_RATE_SK_PER_MIN', kind: integer(1, 1_000_000), default: 600, doc: 'default requests per minute of secret keys' }),
  publishablePerMin: setting({
    env: 'SVC_RATE_PK_PER_MIN', kind: integer(1, 1_000_000), default: 120, doc: 'default requests per minute of publishable keys',
  }),
  reportsPerDay: setting({
    env: 'SVC_REPORTS_PER_DAY', kind: integer(0, 1_000_000), default: 50,
    doc: 'default daily report quota (reports accepted per key per UTC day)',
  }),
  geocoder: setting({
    env: 'SVC_GEOCODER', kind: geocoderChoice(), default: { kind: 'embedded' }, defaultDoc: '`embedded`',
    doc: "`embedded` (built-in gazetteer); or an HTTP geocoder: a base URL, or `svc:<url>`, for one speaking this service's geocoder contract; `nominatim:<url>` for Nominatim (e.g. `nominatim:https://nominatim.example.org`); `photon:<url>` for Photon (e.g. `photon:http://10.0.0.5:2322`). A path in the URL is kept; a query or fragment is refused ([geocoding.md](geocoding.md))",
  }),
  geocoderTimeoutMs: setting({
    env: 'SVC_GEOCODER_TIMEOUT_MS', kind: integer(1, 600_000), default: 5_000, onlyWith: 'httpGeocoder',
    doc: 'time-out of one HTTP geocoder request (connection, headers and body); past it the request answers 502',
  }),
  geocoderUserAgent: setting({
    env: 'SVC_GEOCODER_USER_AGENT', kind: printableText(), onlyWith: 'httpGeocoder',
    // A configured docs URL is the public address of this service; the default (the server's own /docs, a local
    // address) would tell a geocoder nothing, so the User-Agent then names only the service and version.
    default: (c) => `svc-api/${c.version}${c.docsUrl !== undefined ? ` (+${c.docsUrl})` : ''}`,
    defaultDoc: '`svc-api/<version> (+<SVC_DOCS_URL>)`, or `svc-api/<version>` when `SVC_DOCS_URL` is unset',
    doc: "`User-Agent` sent to the HTTP geocoder. Nominatim's usage policy requires one that identifies the application; put a contact in it when using a public instance (`acme-air/1.0 (ops@acme.example)`)",
  }),
  modelServiceUrl: setting({
    env: 'SVC_MODEL_SERVICE_URL', kind: httpUrl({ stripSlashes: false }), default: undefined,
    defaultDoc: 'unset: an embedded one over `SVC_DATA_DIR`', doc: 'base URL of the model service (live and forecast data)',
  }),
  modelServiceTimeoutMs: setting({
    env: 'SVC_MODEL_SERVICE_TIMEOUT_MS', kind: integer(1, 600_000), default: 10_000,
    doc: 'deadline of one model-service call, retries included; past it `/realtime` and `/forecast` answer 504',
  }),
  computeThreads: setting({
    env: 'SVC_COMPUTE_THREADS', kind: integer(1, 256), default: () => availableParallelism(), defaultDoc: 'number of cores',
    doc: 'compute worker threads',
  }),
  bodyLimitBytes: setting({
    env: 'SVC_BODY_LIMIT_BYTES', kind: integer(1_024, 100 * 1024 * 1024), default: 64 * 1024, doc: 'largest accepted request body (413 above)',
  }),
  // None of the time-outs can be 0: Node reads 0 as "no time-out", which lets a silent client hold a connection forever.
  headersTimeoutMs: setting({
    env: 'SVC_HEADERS_TIMEOUT_MS', kind: integer(1, 600_000), default: 10_000, atMost: 'requestTimeoutMs',
    doc: "time a client has to send a request's headers; past it 408 and the connection closes",
  }),
  requestTimeoutMs: setting({
    env: 'SVC_REQUEST_TIMEOUT_MS', kind: integer(1, 3_600_000), default: 30_000,
    doc: 'time a client has to send a whole request, body included; past it 408 and the connection closes',
  }),
  keepAliveTimeoutMs: setting({
    env: 'SVC_KEEP_ALIVE_TIMEOUT_MS', kind: integer(1, 600_000), default: 72_000,
    doc: 'how long an idle keep-alive connection stays open between requests (above the 60 s idle time-out of common load balancers)',
  }),
  memoryBudgetMb: setting({
    env: 'SVC_MEMORY_BUDGET_MB', kind: integer(MIN_MEMORY_BUDGET_MB, 1_048_576), default: DEFAULT_MEMORY_BUDGET_MB,
    doc: "memory for all of the node's caches together, MiB, each counting what its entries really hold; every cache gets a fixed share of it ([memory](#memory)). A node needs this much on top of its baseline",
  }),
  statsResponseCacheMb: setting({
    env: 'SVC_STATS_RESPONSE_CACHE_MB', kind: optional(integer(0, 65_536)), default: undefined, defaultDoc: 'unset: 1/16 of `SVC_MEMORY_BUDGET_MB`',
    doc: 'memory for complete `/historical/stats` answers replayed by the stats fast path, MiB, taken from the memory budget; 0 turns it off',
  }),
  tileSecret: setting({
    env: 'SVC_TILE_SECRET', kind: secret(MIN_TILE_SECRET_CHARS), default: undefined, defaultDoc: 'unset: `$SVC_DATA_DIR/tile-secret`',
    doc: 'secret that signs map tile URLs (HMAC-SHA256); never printed, not even in its error message. Unset, a 256-bit secret is made on the first start and kept in the data directory (below). Several API nodes must share one; changing it invalidates every URL handed out ([map.md](map.md#signed-urls))',
  }),
  publicUrl: setting({
    env: 'SVC_PUBLIC_URL', kind: httpUrl({ stripSlashes: true }), default: undefined, defaultDoc: "unset: each request's own scheme and `Host`",
    doc: 'public address of the API that absolute tile URLs in TileJSON start with; set it behind a proxy that terminates TLS or rewrites the host',
  }),
  mapTileCacheMb: setting({
    env: 'SVC_MAP_TILE_CACHE_MB', kind: optional(integer(1, 65_536)), default: undefined, defaultDoc: 'unset: 2/16 of `SVC_MEMORY_BUDGET_MB`',
    doc: 'memory for drawn map tiles, raw and gzipped, MiB, taken from the memory budget',
  }),
  mapSliceCacheMb: setting({
    env: 'SVC_MAP_SLICE_CACHE_MB', kind: optional(integer(1, 65_536)), default: undefined, defaultDoc: 'unset: 4/16 of `SVC_MEMORY_BUDGET_MB`',
    doc: "memory for the model's hourly grid slices behind map tiles, MiB, taken from the memory budget (about 77 KB per field and hour on the 10 m demo grid)",
  }),
  mapAnnualCacheMb: setting({
    env: 'SVC_MAP_ANNUAL_CACHE_MB', kind: optional(integer(0, 65_536)), default: undefined, defaultDoc: 'unset: 1/16 of `SVC_MEMORY_BUDGET_MB`',
    doc: 'memory for the decoded chunks of the precomputed grids and overviews behind the annual map layers, MiB, taken from the memory budget (16 KiB per 64 × 64 chunk of a figure; an annual tile at the deepest zoom reads about four of each of its figures); 0 keeps none, so every annual tile decodes what it reads (cold tiles, as the scale ladder times them)',
  }),
  logLevel: setting({ env: 'SVC_LOG_LEVEL', kind: oneOf(LOG_LEVELS), default: 'info', doc: 'least severe level logged; `silent` logs nothing' }),
  reportsDir: setting({
    env: 'SVC_REPORTS_DIR', kind: text({ path: true, allowed: 'a directory' }), default: (c) => join(c.dataDir, 'reports'),
    defaultDoc: '`$SVC_DATA_DIR/reports`',
    doc: 'directory of the report files (`<job id>.html`, `<job id>.pdf`); created if missing ([reports.md](reports.md))',
  }),
  reportConcurrency: setting({ env: 'SVC_REPORT_CONCURRENCY', kind: integer(1, 64), default: 2, doc: 'report jobs worked on at the same time' }),
  reportRenderThreads: setting({
    env: 'SVC_REPORT_RENDER_THREADS', kind: integer(1, 64), default: 1,
    doc: 'threads rendering report HTML and PDF, apart from the compute threads',
  }),
  reportMaxAttempts: setting({
    env: 'SVC_REPORT_MAX_ATTEMPTS', kind: integer(1, 100), default: 5,
    doc: 'attempts of a report job before a transient failure (compute back end, geocoder, renderer, time-out) fails it; back-off 2 s, 4 s, … up to 60 s',
  }),
  reportPdfWaitMs: setting({
    env: 'SVC_REPORT_PDF_WAIT_MS', kind: integer(0, 60_000), default: 1_000,
    doc: 'how long a report status poll waits for the PDF rendering it started or joined; 0: answer `pdf_pending` at once',
  }),
  natsUrl: setting({
    env: 'SVC_NATS_URL', kind: natsServers(), default: undefined, defaultDoc: 'unset',
    doc: 'the NATS JetStream cluster this node joins; unset: the embedded default, one process with its own compute pool, no NATS. Set: statistics, report surroundings and map tiles are computed by `svc worker` processes ([cluster.md](cluster.md)); this node still reads `SVC_DATA_DIR`: to plan queries, for the precomputes and the address index, and, with the embedded model service, its hourly chunks ([deployment.md](deployment.md#layout))',
  }),
  natsAckWaitMs: setting({
    env: 'SVC_NATS_ACK_WAIT_MS', kind: integer(1_000, 3_600_000), default: 90_000, onlyWith: 'nats',
    doc: 'how long a worker may hold a compute task without acknowledging it or reporting progress before NATS hands it to another worker; at least `SVC_NATS_OUTAGE_MS` + 30 s, so a broker restart within the outage bound repeats no task ([cluster.md](cluster.md#broker-restarts))',
  }),
  natsMaxDeliver: setting({
    env: 'SVC_NATS_MAX_DELIVER', kind: integer(1, 100), default: 3, onlyWith: 'nats',
    doc: 'deliveries of a compute task before it fails for good with a clear error',
  }),
  natsOutageMs: setting({
    env: 'SVC_NATS_OUTAGE_MS', kind: integer(1_000, 86_400_000), default: 60_000, onlyWith: 'nats',
    doc: 'how long `svc precompute --nats` and `svc worker` ride out a lost connection to NATS (a broker restart) and go on by themselves; past it the precompute stops with an error saying how to resume, and a worker drops the result it holds (the task runs again). API nodes do not wait: they answer 502 at once ([cluster.md](cluster.md#broker-restarts))',
  }),
};

/** The key of a setting. */
export type SettingKey = keyof typeof SETTINGS;

/** The value type of each setting. */
export type SettingValues = { readonly [K in SettingKey]: (typeof SETTINGS)[K] extends Setting<infer T> ? T : never };

/** Every key, in the table's order. */
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];
