/**
 * Two API nodes of one cluster in the test process, as `svc serve` builds them with `SVC_NATS_URL` set: each its own
 * `createServer` (own caches, own HTTP listener; compute sent to the queue) over one shared key database and one test
 * nats-server; the worker `svc worker` runs (compute and report kinds, its own pool); and a test worker running only
 * report tasks with the real report handler, over a pool of its own, counting how often each job's content is
 * gathered.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KvJobStore } from '../../../src/reports/jobs/kv-job-store.js';
import { ClusterLink } from '../../../src/cluster/nats-connection.js';
import { ObjectReportFiles } from '../../../src/reports/jobs/object-report-files.js';
import { createReportTaskHandler, REPORT_TASK_KIND } from '../../../src/reports/jobs/report-tasks.js';
import type { ConfigOverrides } from '../../../src/config.js';
import { ClusterFlight, KvStatsCache } from '../../../src/services/kv-stats-cache.js';
import { KERNEL_VERSION } from '../../../src/compute/kernels/stats-kernel.js';
import { GAZETTEER } from '../../../src/geocode/gazetteer-data.js';
import { createGazetteer } from '../../../src/geocode/gazetteer.js';
import { createEmbeddedGeocoder } from '../../../src/geocode/geocoder.js';
import { HistoricalService } from '../../../src/services/historical-service.js';
import { MemoryStatsCache } from '../../../src/services/memory-stats-cache.js';
import { createReportContentSource } from '../../../src/reports/index.js';
import type { ReportContentSource } from '../../../src/reports/report-types.js';
import { systemClock } from '../../../src/util/clock.js';
import { startWorkerNode, WORKER_TASK_KINDS, type WorkerNode } from '../../../src/cluster/worker-process.js';
import { createPoolExecutor } from '../../../src/compute/local-compute.js';
import { plannedCompute } from '../../../src/compute/planned-compute.js';
import { reportTaskKinds } from '../../../src/nodes/report-task-runtime.js';
import { startE2eServer, type E2eServer } from '../../e2e/support/e2e-server.js';
import { TEST_LINK_OPTIONS } from './links.js';
import { startTestConsumer, type TestConsumer } from './task-consumer.js';

/** Two API nodes sharing one NATS and one key database. */
export interface ClusterNodes {
  readonly a: E2eServer;
  readonly b: E2eServer;
  /** Issues a key (in the shared key database). */
  issue: E2eServer['issue'];
  close(): Promise<void>;
}

/** Starts two API nodes on `natsUrl`. */
export async function startClusterNodes(natsUrl: string, config: ConfigOverrides = {}): Promise<ClusterNodes> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-cluster-'));
  const shared: ConfigOverrides = {
    nats: { url: natsUrl, ackWaitMs: TEST_LINK_OPTIONS.ackWaitMs, maxDeliver: TEST_LINK_OPTIONS.maxDeliver },
    dbFile: join(dir, 'keys.sqlite'), computeThreads: 1, reportRenderThreads: 1, ...config,
  };
  const a = await startE2eServer({ config: shared });
  const b = await startE2eServer({ config: shared });
  await Promise.all([a.server.cluster!.link.ready(), b.server.cluster!.link.ready()]);
  return {
    a, b,
    issue: (spec) => a.issue(spec),
    close: async () => {
      await Promise.all([a.close(), b.close()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A compute worker as `svc worker` runs it (compute kinds only), connecting in the background. */
export function startComputeWorker(natsUrl: string, dataDir: string): Promise<WorkerNode> {
  return startWorkerNode({
    natsUrl, dataDir, threads: 1, ackWaitMs: TEST_LINK_OPTIONS.ackWaitMs, maxDeliver: TEST_LINK_OPTIONS.maxDeliver, kinds: WORKER_TASK_KINDS,
  });
}


/** A test worker running `report` tasks over a node's statistics, compute and rendering threads. */
export interface ReportWorker {
  readonly link: ClusterLink;
  readonly consumer: TestConsumer;
  /** Gathers per job id (a job gathered twice was run twice from the start). */
  readonly gathered: Map<string, number>;
  stop(): Promise<void>;
}

/** A worker as `svc worker` runs it: compute kinds and the report runtime (src/nodes/report-task-runtime.ts), own pool. */
export interface RuntimeWorker {
  readonly node: WorkerNode;
  stop(): Promise<void>;
}

/** Starts a worker as `svc worker` builds it, with `node`'s configuration, over the fixture data. */
export async function startRuntimeWorker(natsUrl: string, node: E2eServer, _workerId: string): Promise<RuntimeWorker> {
  const { config } = node.server;
  const worker = await startWorkerNode({
    natsUrl, dataDir: config.dataDir, threads: 1, ackWaitMs: TEST_LINK_OPTIONS.ackWaitMs, maxDeliver: TEST_LINK_OPTIONS.maxDeliver,
    kinds: [...WORKER_TASK_KINDS, reportTaskKinds(config)],
  });
  return { node: worker, stop: () => worker.stop() };
}

/** Starts a report worker using `node`'s renderer, with statistics shared through the cluster's cache. */
export async function startReportWorker(natsUrl: string, node: E2eServer, options: { workerId: string; leaseMs?: number; concurrency?: number }): Promise<ReportWorker> {
  const link = ClusterLink.start({ url: natsUrl, name: options.workerId, ...TEST_LINK_OPTIONS });
  await link.ready();
  const executor = createPoolExecutor(1);
  const { config } = node.server;
  const local = plannedCompute(executor, { dataDir: config.dataDir });
  const statsCache = new KvStatsCache(link);
  const historical = new HistoricalService({
    backend: local, geocoder: createEmbeddedGeocoder(createGazetteer(GAZETTEER)), cache: new MemoryStatsCache(statsCache, 64 * 1024 * 1024),
    flights: new ClusterFlight({ link, cache: statsCache, owner: options.workerId, claimMs: 60_000 }),
    clock: systemClock, timeoutMs: config.upstreamTimeoutMs, computeVersion: `${config.version}+${KERNEL_VERSION}`,
  });
  const real = createReportContentSource({ historical, surroundings: local, clock: systemClock });
  const gathered = new Map<string, number>();
  const content: ReportContentSource = {
    gather: (request, key, signal) => {
      const id = `${request.lat},${request.lon},${request.lang}`;
      gathered.set(id, (gathered.get(id) ?? 0) + 1);
      return real.gather(request, key, signal);
    },
  };
  const handler = createReportTaskHandler({
    store: new KvJobStore(link), files: new ObjectReportFiles(link), content, renderer: node.server.reports.renderer, clock: systemClock,
    policy: { maxAttempts: 5, backoffMs: 200, maxBackoffMs: 1_000 }, leaseMs: options.leaseMs ?? 3_000,
  });
  const consumer = startTestConsumer(link, { [REPORT_TASK_KIND]: handler }, { workerId: options.workerId, concurrency: options.concurrency ?? 2 });
  return {
    link, consumer, gathered,
    stop: async () => {
      await consumer.stop();
      await historical.drain();
      await executor.close();
      await link.close();
    },
  };
}
