/**
 * Two API nodes of one cluster in the test process, as `svc serve` builds them with `SVC_NATS_URL` set: each its own
 * `createServer` (own compute pool, own caches, own HTTP listener) over one shared key database and one test
 * nats-server; plus a test worker running report tasks with the real report handler and content.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KvJobStore } from '../../../src/cluster/kv-job-store.js';
import { ClusterLink } from '../../../src/cluster/nats-connection.js';
import { ObjectReportFiles } from '../../../src/cluster/object-report-files.js';
import { createReportTaskHandler, REPORT_TASK_KIND } from '../../../src/cluster/report-tasks.js';
import type { ConfigOverrides } from '../../../src/config.js';
import { createReportContentSource } from '../../../src/reports/index.js';
import type { ReportContentSource } from '../../../src/reports/report-types.js';
import { systemClock } from '../../../src/services/clock.js';
import { createLocalCompute } from '../../../src/compute/local-compute.js';
import { createReportTaskRuntime } from '../../../src/report-task-runtime.js';
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

/** A test worker running `report` tasks over a node's statistics, compute and rendering threads. */
export interface ReportWorker {
  readonly link: ClusterLink;
  readonly consumer: TestConsumer;
  /** Gathers per job id (a job gathered twice was run twice from the start). */
  readonly gathered: Map<string, number>;
  stop(): Promise<void>;
}

/**
 * Starts a worker process's report runtime as `svc worker` builds it (src/report-task-runtime.ts): its own compute
 * pool over the fixture data and its own rendering threads.
 */
export async function startRuntimeWorker(natsUrl: string, node: E2eServer, workerId: string): Promise<ReportWorker> {
  const link = ClusterLink.start({ url: natsUrl, name: workerId, ...TEST_LINK_OPTIONS });
  await link.ready();
  const compute = await createLocalCompute({ dataDir: node.server.config.dataDir, threads: 1 });
  const runtime = createReportTaskRuntime({ config: node.server.config, link, compute, workerId });
  const consumer = startTestConsumer(link, { [REPORT_TASK_KIND]: runtime.handler }, { workerId, concurrency: 2 });
  return {
    link, consumer, gathered: new Map(),
    stop: async () => {
      await consumer.stop();
      await runtime.close();
      await compute.close();
      await link.close();
    },
  };
}

/** Starts a report worker using `node`'s parts (its historical service and compute go through the cluster too). */
export async function startReportWorker(natsUrl: string, node: E2eServer, options: { workerId: string; leaseMs?: number; concurrency?: number }): Promise<ReportWorker> {
  const link = ClusterLink.start({ url: natsUrl, name: options.workerId, ...TEST_LINK_OPTIONS });
  await link.ready();
  const real = createReportContentSource({ historical: node.server.historical, surroundings: node.server.compute, clock: systemClock });
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
      await link.close();
    },
  };
}
