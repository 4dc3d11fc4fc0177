/**
 * What a worker node (`svc worker`) needs to run `report` tasks: the cluster's back ends over the worker's own link
 * and compute pool (the same record an API node builds, `natsBackends`), so the report content is gathered over the
 * worker's pool with the statistics cache and single flight shared with the API nodes (a report's statistics are
 * computed once in the cluster and reused by later requests); its own rendering threads; the job store and files in
 * NATS. The handler it returns is registered under `REPORT_TASK_KIND` with the worker's handler registry.
 *
 * Workers, not API nodes, run report tasks: on nats-server 2.9 a work-queue stream admits one consumer per subject,
 * and the workers' consumer takes every `svc.task.>` subject.
 */
import type { ClusterLink } from '../cluster/nats-connection.js';
import type { TaskHandler } from '../cluster/task-types.js';
import type { TaskKindsFactory } from '../cluster/worker-process.js';
import type { PlannedCompute } from '../compute/planned-compute.js';
import type { Config, NatsConfig } from '../config.js';
import { createReportContentSource } from '../reports/index.js';
import { createReportTaskHandler, REPORT_TASK_KIND } from '../reports/jobs/report-tasks.js';
import { REPORT_RETRY_BASE_MS, REPORT_RETRY_MAX_MS } from '../reports/report-product.js';
import { createRenderPool } from '../reports/render/render-pool.js';
import { systemClock } from '../util/clock.js';
import { SILENT_LOGGER, type Logger } from '../util/logger.js';
import { embeddedGeocoder } from './geocoders.js';
import { natsBackends } from './nats-backends.js';
import { historicalService } from './statistics.js';
import { BATCH_JOB_KIND } from '../batch/batch-job-request.js';
import { AREA_JOB_KIND } from '../area/area-job-request.js';
import { areaWork } from '../area/area-jobs.js';
import { AreaService } from '../area/area-service.js';
import { BatchProgress, batchWork } from '../batch/batch-jobs.js';
import { defaultBatchService } from './http-app.js';
import { describeFailure } from './batch-failures.js';

/** What the runtime is built from. */
export interface ReportTaskRuntimeDeps {
  readonly config: Config;
  readonly link: ClusterLink;
  /** The worker's compute pool over its data directory. */
  readonly compute: PlannedCompute;
  /** The worker's id (flight claims, lease owners). */
  readonly workerId: string;
  readonly logger?: Logger | undefined;
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
    const runtime = createReportTaskRuntime({ config, link: parts.link, compute: parts.compute, workerId: parts.workerId, logger });
    parts.onStop(() => runtime.close());
    return new Map([[REPORT_TASK_KIND, runtime.handler]]);
  };
}

/** The NATS settings of a worker's configuration (its `--nats` URL with the queue's limits). */
function natsOf(config: Config): NatsConfig {
  if (config.nats === undefined) throw new RangeError('A worker node needs the NATS settings (svc worker --nats URL).');
  return config.nats;
}

/** Builds the report runtime of a worker. */
function createReportTaskRuntime(deps: ReportTaskRuntimeDeps): ReportTaskRuntime {
  const { config } = deps;
  const logger = deps.logger ?? SILENT_LOGGER;
  const clock = systemClock;
  const backends = natsBackends({ ...config, nats: natsOf(config) }, {
    clock, logger, nodeId: deps.workerId, link: deps.link, compute: deps.compute,
  });
  // Report requests carry coordinates resolved on admission; batch jobs' addresses are geocoded here with the
  // embedded gazetteer.
  const historical = historicalService(config, backends, { geocoder: embeddedGeocoder(), clock, logger });
  const renderer = createRenderPool({ threads: config.reportRenderThreads });
  // Batch and area jobs run here beside reports: their statistics go through the worker's pool and the shared cache.
  const batch = defaultBatchService(historical);
  const progress = new BatchProgress();
  // Area jobs plan and compute here too, over the worker's compute back end and data directory.
  const area = new AreaService({ backend: backends.compute, dataDir: config.dataDir, clock, timeoutMs: config.upstreamTimeoutMs, logger });
  const handler = createReportTaskHandler({
    store: backends.jobs,
    files: backends.files,
    content: createReportContentSource({ historical, surroundings: backends.compute, clock }),
    renderer,
    clock,
    policy: { maxAttempts: config.reportMaxAttempts, backoffMs: REPORT_RETRY_BASE_MS, maxBackoffMs: REPORT_RETRY_MAX_MS },
    leaseMs: natsOf(config).ackWaitMs,
    logger,
    otherWork: (queue, files) => ({
      [BATCH_JOB_KIND]: batchWork({ batch, queue, files, clock, progress, describe: (err) => describeFailure(err, logger) }),
      [AREA_JOB_KIND]: areaWork({ area, queue, files, clock, progress, describe: (err) => describeFailure(err, logger) }),
    }),
  });
  return {
    handler,
    close: async () => {
      await historical.drain();
      await renderer.close();
      await backends.close();
    },
  };
}
