/**
 * The coordinator side of a distributed precompute (`svc precompute --nats URL`): the precompute service runs as for
 * a local run (planning, progress, resume markers, output) while its chunk rows go to the workers as `precompute-row`
 * tasks. The requester id is fixed per dataset (`precompute-<dataset>`) and row tasks have stable ids, so a coordinator
 * that restarts within the queue's duplicate window finds the rows still in flight (their results are stored in
 * `SVC_RESULTS`) instead of queuing them twice; later, a row is simply queued again (rows are idempotent).
 *
 * A broker restart is ridden out for up to `SVC_NATS_OUTAGE_MS` (task-queue.ts `outage`): the rows awaited keep
 * waiting, results stored meanwhile are picked up, rows the server lost are queued again; `downSince()` lets the
 * progress bar show the outage. Past the bound the run fails with an error that says how to resume.
 */
import type { PlannedCompute } from '../compute/planned-compute.js';
import { defaultNatsLimits, type NatsConfig } from '../config.js';
import type { PrecomputeOptions } from '../services/precompute.js';
import { createNatsCompute } from '../cluster/nats-compute.js';
import { ClusterLink } from '../cluster/nats-connection.js';
import { NatsTaskQueue } from '../cluster/task-queue.js';

/** Row tasks in the queue at once: enough to keep many workers busy, few enough that each is answered in time. */
const PRECOMPUTE_IN_FLIGHT = 64;
/** Deadline of one row task, from its publication (it may wait behind the other rows in flight). */
const PRECOMPUTE_ROW_TIMEOUT_MS = 30 * 60_000;

/** A coordinator's compute and options. */
export interface ClusterPrecompute {
  readonly compute: PlannedCompute;
  readonly options: PrecomputeOptions;
  /** Since when (ms since the epoch) the cluster has been unreachable; undefined while it is reachable. */
  downSince(): number | undefined;
  close(): Promise<void>;
}

/**
 * Connects to `url` (waiting for NATS, with a message while it is unreachable) and sets up the coordinator. `limits`
 * are the queue's, which the first process to connect sets up: the caller's configured ones, or the table's defaults.
 */
export async function clusterPrecompute(
  url: string, dataDir: string, dataset: string, limits: Omit<NatsConfig, 'url'> = defaultNatsLimits(),
): Promise<ClusterPrecompute> {
  const link = ClusterLink.start({ url, name: `svc-precompute ${dataset}`, ackWaitMs: limits.ackWaitMs, maxDeliver: limits.maxDeliver });
  const notice = setTimeout(() => console.error(`Waiting for NATS at ${url} ...`), 2_000);
  await link.ready();
  clearTimeout(notice);
  const queue = new NatsTaskQueue({
    link, requesterId: `precompute-${dataset}`, defaultTimeoutMs: PRECOMPUTE_ROW_TIMEOUT_MS,
    outage: {
      boundMs: limits.outageMs,
      advice: 'Rerun the same command once NATS is back to resume: rows already saved are kept, rows still queued are not ' +
        'queued twice (raise SVC_NATS_OUTAGE_MS to wait longer).',
    },
  });
  return {
    compute: createNatsCompute({ queue, dataDir }),
    options: { concurrency: PRECOMPUTE_IN_FLIGHT, taskIdPrefix: `pre-${dataset}` },
    downSince: () => link.downSince(),
    async close() {
      queue.close();
      await link.close();
    },
  };
}
