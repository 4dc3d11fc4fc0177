/**
 * The shared state of an API node in a cluster (`SVC_NATS_URL` set), built in one place for the composition root:
 * the link to NATS, the rate limiter, the report jobs, files and task submission, and the statistics cache with its
 * cross-node single flight. Without `SVC_NATS_URL` there is none and the node keeps its embedded state (memory
 * limiter, SQLite, the reports directory).
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { KvJobStore } from '../reports/jobs/kv-job-store.js';
import { KvRateLimiter } from './kv-rate-limiter.js';
import { ClusterFlight, KvStatsCache } from './kv-stats-cache.js';
import { ClusterLink } from './nats-connection.js';
import { ObjectReportFiles } from '../reports/jobs/object-report-files.js';
import type { Logger } from '../util/logger.js';
import { JetStreamTaskSubmitter, type TaskSubmitter } from './task-submit.js';

/** The pieces a cluster API node uses instead of its embedded ones. */
export interface ClusterState {
  /** This node's id (logs, flight claims, the NATS connection name). */
  readonly nodeId: string;
  readonly link: ClusterLink;
  readonly rateLimiter: KvRateLimiter;
  readonly jobs: KvJobStore;
  readonly files: ObjectReportFiles;
  readonly tasks: TaskSubmitter;
  readonly statsCache: KvStatsCache;
  readonly flights: ClusterFlight;
  /** Closes the link (after everything using it stopped). */
  close(): Promise<void>;
}

/** Options of `clusterState`. */
export interface ClusterStateOptions {
  readonly log?: Logger;
  /** An existing link of this process to share; one is started otherwise (and closed by `close`). */
  readonly link?: ClusterLink;
}

/** How long a statistics flight claim holds, in upstream time-outs: computations go on after a client's time-out. */
const CLAIM_TIMEOUTS = 4;

/** The shared state for `config`, or undefined on the embedded default (no `SVC_NATS_URL`). */
export function clusterState(config: Config, options: ClusterStateOptions = {}): ClusterState | undefined {
  const nats = config.nats;
  if (nats === undefined) return undefined;
  const nodeId = `api-${randomBytes(4).toString('hex')}`;
  const link = options.link ?? ClusterLink.start({
    url: nats.url, name: `svc-api ${nodeId}`, ackWaitMs: nats.ackWaitMs, maxDeliver: nats.maxDeliver,
    ...(options.log !== undefined ? { log: options.log } : {}),
  });
  const statsCache = new KvStatsCache(link);
  return {
    nodeId,
    link,
    rateLimiter: new KvRateLimiter(link),
    jobs: new KvJobStore(link),
    files: new ObjectReportFiles(link),
    tasks: new JetStreamTaskSubmitter(link),
    statsCache,
    flights: new ClusterFlight({ link, cache: statsCache, owner: nodeId, claimMs: Math.max(60_000, CLAIM_TIMEOUTS * config.upstreamTimeoutMs) }),
    close: () => (options.link === undefined ? link.close() : Promise.resolve()),
  };
}
