/**
 * What a worker process (`svc worker`) needs to run `report` tasks (part of the composition root, beside
 * report-product.ts): the report content gathered over the worker's own compute pool, with the historical statistics
 * cache and single flight shared with the API nodes (so a report's statistics are computed once in the cluster and
 * reused by later requests), its own rendering threads, and the job store and files in NATS. The handler it returns
 * is registered under `REPORT_TASK_KIND` with the worker's handler registry.
 *
 * Workers, not API nodes, run report tasks: on nats-server 2.9 a work-queue stream admits one consumer per subject,
 * and the workers' consumer takes every `svc.task.>` subject.
 */
import { KvJobStore } from './jobs/kv-job-store.js';
import { ClusterFlight, KvStatsCache } from '../cluster/kv-stats-cache.js';
import type { ClusterLink } from '../cluster/nats-connection.js';
import { ObjectReportFiles } from './jobs/object-report-files.js';
import { createReportTaskHandler, REPORT_TASK_KIND } from './jobs/report-tasks.js';
import type { TaskKindsFactory } from '../cluster/worker-node.js';
import type { TaskHandler } from '../cluster/task-types.js';
import { KERNEL_VERSION } from '../compute/stats-kernel.js';
import type { Config } from '../config.js';
import { REPORT_RETRY_BASE_MS, REPORT_RETRY_MAX_MS } from './report-product.js';
import { createReportContentSource } from './index.js';
import { createRenderPool } from './render/render-pool.js';
import { GAZETTEER } from '../geocode/gazetteer-data.js';
import { createGazetteer } from '../geocode/gazetteer.js';
import { createEmbeddedGeocoder } from '../geocode/geocoder.js';
import { systemClock } from '../util/clock.js';
import { HistoricalService } from '../services/historical-service.js';
import { MemoryStatsCache } from '../services/memory-stats-cache.js';
import type { Logger } from '../util/logger.js';
import type { PlannedCompute } from '../compute/planned-compute.js';

/** What the runtime is built from. */
export interface ReportTaskRuntimeDeps {
  readonly config: Config;
  readonly link: ClusterLink;
  /** The worker's compute pool over its data directory. */
  readonly compute: PlannedCompute;
  /** The worker's id (flight claims, lease owners). */
  readonly workerId: string;
  readonly logger?: Logger;
}

/** The `report` handler of a worker and what to close when the worker stops. */
export interface ReportTaskRuntime {
  readonly handler: TaskHandler;
  /** Waits for statistics computations in hand, then closes the rendering threads (the compute pool is the caller's). */
  close(): Promise<void>;
}

/** The `report` kind for a worker's handler registry (`startWorkerNode`'s `kinds`), closed when the worker stops. */
export function reportTaskKinds(config: Config, logger?: Logger): TaskKindsFactory {
  return (parts) => {
    const runtime = createReportTaskRuntime({ config, link: parts.link, compute: parts.compute, workerId: parts.workerId, ...(logger ? { logger } : {}) });
    parts.onStop(() => runtime.close());
    return new Map([[REPORT_TASK_KIND, runtime.handler]]);
  };
}

/** Builds the report runtime of a worker. */
export function createReportTaskRuntime(deps: ReportTaskRuntimeDeps): ReportTaskRuntime {
  const { config, link, compute, logger } = deps;
  const statsCache = new KvStatsCache(link);
  const historical = new HistoricalService({
    backend: compute,
    // Report requests carry coordinates resolved on admission: statistics never geocode here.
    geocoder: createEmbeddedGeocoder(createGazetteer(GAZETTEER)),
    cache: new MemoryStatsCache(statsCache),
    flights: new ClusterFlight({ link, cache: statsCache, owner: deps.workerId, claimMs: Math.max(60_000, 4 * config.upstreamTimeoutMs) }),
    clock: systemClock,
    timeoutMs: config.upstreamTimeoutMs,
    // The API nodes' formula: the same cache keys, so either side reuses what the other computed.
    computeVersion: `${config.version}+${KERNEL_VERSION}`,
    ...(logger ? { logger } : {}),
  });
  const renderer = createRenderPool({ threads: config.reportRenderThreads });
  const handler = createReportTaskHandler({
    store: new KvJobStore(link),
    files: new ObjectReportFiles(link),
    content: createReportContentSource({ historical, surroundings: compute, clock: systemClock }),
    renderer,
    clock: systemClock,
    policy: { maxAttempts: config.reportMaxAttempts, backoffMs: REPORT_RETRY_BASE_MS, maxBackoffMs: REPORT_RETRY_MAX_MS },
    leaseMs: config.nats?.ackWaitMs ?? 30_000,
    ...(logger ? { logger } : {}),
  });
  return {
    handler,
    close: async () => {
      await historical.drain();
      await renderer.close();
    },
  };
}
