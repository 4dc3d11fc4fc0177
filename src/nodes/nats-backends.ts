/**
 * A cluster node's back ends (`SVC_NATS_URL`): one link to NATS JetStream carries them all. Requests are counted in
 * KV, statistics kept in KV with one computation per key across the nodes, report jobs, quotas and idempotency keys
 * in KV and their files in the object store, accepted jobs queued as `report` tasks for the workers, and computations
 * sent to the work queue (an API node) or run in the node's own pool (a worker, which passes it). The node starts
 * while NATS is down; what needs it fails fast with `UpstreamError` until NATS returns.
 */
import { randomBytes } from 'node:crypto';
import { KvRateLimiter } from '../keys/kv-rate-limiter.js';
import { ClusterFlight, KvStatsCache } from '../services/kv-stats-cache.js';
import { createNatsCompute } from '../cluster/nats-compute.js';
import { ClusterLink } from '../cluster/nats-connection.js';
import { JetStreamTaskSubmitter } from '../cluster/task-submit.js';
import { NatsTaskQueue } from '../cluster/task-queue.js';
import type { PlannedCompute } from '../compute/planned-compute.js';
import type { Config, NatsConfig } from '../config.js';
import { KvJobStore } from '../reports/jobs/kv-job-store.js';
import { ObjectReportFiles } from '../reports/jobs/object-report-files.js';
import { ReportDispatcher } from '../reports/jobs/report-dispatch.js';
import type { BackendOptions, NodeBackends } from './backends.js';
import { FLIGHT_CLAIM_MS } from './statistics.js';

/** What a node may bring instead of what the builder would start. */
export interface NatsBackendOptions extends Omit<BackendOptions, 'db'> {
  /** The node's id; `api-` and a random one otherwise. */
  readonly nodeId?: string;
  /** The node's link to share (a worker's); one is started otherwise, and closed by `close`. */
  readonly link?: ClusterLink;
  /** The node's own compute (a worker's pool); otherwise computations go to the work queue. */
  readonly compute?: PlannedCompute;
}

/**
 * Deadline of a compute task: every delivery may take up to ack_wait before the task moves on, plus the API's own
 * upstream time-out, so a result that outlasts the client's wait still arrives (and is cached).
 */
function clusterTaskTimeoutMs(nats: NatsConfig, upstreamTimeoutMs: number): number {
  return nats.ackWaitMs * nats.maxDeliver + upstreamTimeoutMs;
}

/** A cluster node's back ends: the record, with the link and the KV job store (whose leases workers use) as such. */
export interface NatsBackends extends NodeBackends {
  readonly kind: 'nats';
  readonly link: ClusterLink;
  readonly jobs: KvJobStore;
}

/** Builds a cluster node's back ends over `config.nats`. */
export function natsBackends(config: Config & { nats: NatsConfig }, options: NatsBackendOptions): NatsBackends {
  const { nats } = config;
  const { clock, logger } = options;
  const nodeId = options.nodeId ?? `api-${randomBytes(4).toString('hex')}`;
  const link = options.link ?? ClusterLink.start({
    url: nats.url, name: `svc-api ${nodeId}`, ackWaitMs: nats.ackWaitMs, maxDeliver: nats.maxDeliver, log: logger,
  });
  const queue = options.compute === undefined
    ? new NatsTaskQueue({ link, requesterId: nodeId, defaultTimeoutMs: clusterTaskTimeoutMs(nats, config.upstreamTimeoutMs) })
    : undefined;
  const compute = options.compute ?? createNatsCompute({ queue: queue!, dataDir: config.dataDir });
  const statsCache = new KvStatsCache(link);
  const jobs = new KvJobStore(link);
  const tasks = new JetStreamTaskSubmitter(link);
  return {
    kind: 'nats',
    nodeId,
    link,
    rateLimiter: new KvRateLimiter(link),
    statsCache,
    flights: new ClusterFlight({ link, cache: statsCache, owner: nodeId, claimMs: FLIGHT_CLAIM_MS }),
    jobs,
    files: new ObjectReportFiles(link),
    compute,
    jobDriver: (parts) => new ReportDispatcher({ store: jobs, tasks, keyById: parts.keyById, clock, logger }),
    async close() {
      // Stops listening for results; a shared link (a worker's) is closed by its owner.
      queue?.close();
      if (options.link === undefined) await link.close();
    },
  };
}
