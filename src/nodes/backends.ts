/**
 * The back ends a node runs on, as one record: the same shape whether `embeddedBackends` built it (one process:
 * memory, SQLite, the reports directory, the local compute pool) or `natsBackends` (a cluster node: JetStream KV and
 * object store, the NATS work queue). Everything above takes its parts from this record and never asks which kind
 * it is; adding a back end means writing one more builder of it.
 */
import type { PlannedCompute } from '../compute/planned-compute.js';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { ClusterLink } from '../cluster/nats-connection.js';
import type { ApiKeyRecord } from '../keys/key-types.js';
import type { RateLimiter } from '../keys/rate-limiter.js';
import type { JobDriver } from '../reports/jobs/job-driver.js';
import type { ReportJobBackend } from '../reports/jobs/job-types.js';
import type { ReportFileStore } from '../reports/jobs/report-files.js';
import type { JobWork } from '../reports/jobs/job-runner.js';
import type { JobTransitions } from '../reports/jobs/job-types.js';
import type { ReportContentSource, ReportRenderer } from '../reports/report-types.js';
import type { CachedStats, StatsCache } from '../services/stats-cache.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import type { FlightGroup } from '../util/single-flight.js';

/** What a job driver is built over: the report's content and rendering, and the key look-up of older jobs. */
export interface JobDriverParts {
  readonly content: ReportContentSource;
  readonly renderer: ReportRenderer;
  /** A key by id: read only for jobs accepted before requests carried their key's entitlement. */
  readonly keyById: (id: number) => ApiKeyRecord | undefined;
  /**
   * The work of the other job kinds the node runs on the same store, by kind (`batch`), given the store's
   * transitions and the file store; a driver that runs jobs in this process runs them beside reports, one that hands
   * jobs to workers ignores it (a worker has its own: nodes/report-task-runtime.ts).
   */
  readonly otherWork?: (queue: JobTransitions, files: ReportFileStore) => Readonly<Record<string, JobWork>>;
}

/** The back ends of one node. */
export interface NodeBackends {
  readonly kind: 'embedded' | 'nats';
  /** This node's id (logs, flight claims, requester id of its compute tasks). */
  readonly nodeId: string;
  /** The node's link to NATS; undefined on the embedded default. */
  readonly link: ClusterLink | undefined;
  /** Per-key request counting: this process's memory, or shared through KV. */
  readonly rateLimiter: RateLimiter;
  /** Statistics kept beyond this process's memory: SQLite, or KV shared by the nodes. */
  readonly statsCache: StatsCache;
  /** One computation per statistics key across the nodes; undefined: within this process only. */
  readonly flights: FlightGroup<CachedStats> | undefined;
  /** Report jobs, quotas and idempotency keys. */
  readonly jobs: ReportJobBackend;
  /** Report files. */
  readonly files: ReportFileStore;
  /** Statistics, surroundings, precompute rows and map tiles: the local pool, or the cluster's work queue. */
  readonly compute: PlannedCompute;
  /** Builds what runs accepted report jobs: a runner in this process, or a dispatcher queueing them for workers. */
  jobDriver(parts: JobDriverParts): JobDriver;
  /** Closes what the builder opened (the compute, then the link), once everything using them has stopped. */
  close(): Promise<void>;
}

/** What either builder takes besides the configuration. */
export interface BackendOptions {
  /** The node's database (keys, and on the embedded default its statistics cache and jobs). */
  readonly db: Database;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** The back ends `config` asks for: NATS when `SVC_NATS_URL` is set, else the embedded default. */
export async function backendsFor(config: Config, options: BackendOptions): Promise<NodeBackends> {
  // Loaded on demand: the pool and its kernels, or the NATS client, are only needed by the kind that runs.
  if (config.nats !== undefined) {
    const { natsBackends } = await import('./nats-backends.js');
    return natsBackends({ ...config, nats: config.nats }, options);
  }
  const { embeddedBackends } = await import('./embedded-backends.js');
  return embeddedBackends(config, options);
}
