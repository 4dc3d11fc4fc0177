/**
 * The compute back end of an API node in cluster mode (`SVC_NATS_URL` set): the node's link to NATS, a task queue
 * with this node's requester id, and the NATS compute facade over the node's data directory (read for planning only).
 * The node starts while NATS is down; statistics then fail fast with `UpstreamError` until NATS returns.
 */
import type { Config, NatsConfig } from '../config.js';
import type { PlannedCompute } from '../compute/planned-compute.js';
import type { Logger } from '../util/logger.js';
import { createNatsCompute } from './nats-compute.js';
import { ClusterLink } from './nats-connection.js';
import { NatsTaskQueue, randomId } from './task-queue.js';

/** An API node's cluster compute and the link it runs on (other cluster parts of the node may share the link). */
export interface ClusterCompute {
  readonly link: ClusterLink;
  readonly queue: NatsTaskQueue;
  readonly compute: PlannedCompute;
  /** Stops listening for results, and closes the link unless it was given (shared). */
  close(): Promise<void>;
}

/**
 * Deadline of a compute task: every delivery may take up to ack_wait before the task moves on, plus the API's own
 * upstream time-out, so a result that outlasts the client's wait still arrives (and is cached).
 */
export function clusterTaskTimeoutMs(nats: NatsConfig, upstreamTimeoutMs: number): number {
  return nats.ackWaitMs * nats.maxDeliver + upstreamTimeoutMs;
}

/** Options of `startClusterCompute`. */
export interface ClusterComputeOptions {
  /** The node's link to share (the node's shared state uses it too); one is started otherwise. */
  readonly link?: ClusterLink;
  /** The node's id, used as requester id; a fresh random one otherwise. */
  readonly requesterId?: string;
  readonly log?: Logger;
}

/** Starts the cluster compute of an API node configured with `config.nats`. */
export function startClusterCompute(config: Config & { nats: NatsConfig }, options: ClusterComputeOptions = {}): ClusterCompute {
  const nodeId = options.requesterId ?? randomId();
  const link = options.link ?? ClusterLink.start({
    url: config.nats.url, name: `svc-api ${nodeId}`, ackWaitMs: config.nats.ackWaitMs, maxDeliver: config.nats.maxDeliver,
    ...(options.log ? { log: options.log } : {}),
  });
  const queue = new NatsTaskQueue({ link, requesterId: nodeId, defaultTimeoutMs: clusterTaskTimeoutMs(config.nats, config.upstreamTimeoutMs) });
  const compute = createNatsCompute({ queue, dataDir: config.dataDir });
  return {
    link, queue, compute,
    async close() {
      queue.close();
      // A shared link is closed by its owner.
      if (options.link === undefined) await link.close();
    },
  };
}
