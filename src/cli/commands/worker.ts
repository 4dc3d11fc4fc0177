/**
 * `svc worker`: a compute worker of the cluster. It pulls tasks from the NATS JetStream work queue, runs them in its
 * own pool of compute threads over its own copy of the data, and sends the results back. SIGINT or SIGTERM stops it
 * gracefully: no more tasks are pulled, tasks in hand finish within the grace period, the rest go back to the queue.
 */
import { parseArgs } from 'node:util';
import { startWorker } from '../../nodes/worker-node.js';
import { ENV_VARS } from '../../config.js';
import { ANSWERING_DATASETS } from '../../cities/catalog.js';
import { listDatasets } from '../../store/data-dir.js';
import type { Logger } from '../../util/logger.js';
import type { Command } from '../command.js';
import { parseCount, processConfig, shutdownSignal } from '../options.js';
import { UsageError } from '../usage-error.js';

const USAGE = `Usage: svc worker --nats URL --data DIR|URL [--threads N] [--grace S]

Runs compute tasks (statistics, split accumulations, surroundings, map tiles, precompute row blocks) and report jobs
(SVC_REPORT_* settings apply) for every API
node and precompute run of the cluster at URL (nats://host:port, several separated by commas). DIR is this machine's
copy of the datasets (the same content as the API nodes'), or an http(s) base URL serving the same files (a static file
server, an object store's public or presigned GETs). --threads: compute threads and tasks held at once (default:
the number of cores). --grace: seconds a stop lets tasks in hand finish before handing them back (default 10).
SVC_NATS_ACK_WAIT_MS and SVC_NATS_MAX_DELIVER set the queue's limits (docs/operations.md).`;

/** A JSON-lines logger on stderr (one object per line, like the API's logs). */
function lineLog(level: string) {
  return (obj: object, msg: string) => process.stderr.write(`${JSON.stringify({ level, time: Date.now(), ...obj, msg })}\n`);
}

/** The datasets at `data`: listed in a directory; where it cannot be listed (HTTP), the datasets tasks ask for. */
function checkData(data: string): Promise<string[]> {
  return listDatasets(data, Object.keys(ANSWERING_DATASETS));
}

/** `svc worker`. */
export const workerCommand: Command = {
  path: ['worker'],
  summary: 'Run a compute worker of the NATS cluster',
  usage: USAGE,
  async run(args) {
    const { values } = parseArgs({
      args, strict: true,
      options: { nats: { type: 'string' }, data: { type: 'string' }, threads: { type: 'string' }, grace: { type: 'string' } },
    });
    if (!values.nats) throw new UsageError('--nats URL is required.');
    if (!values.data) throw new UsageError('--data DIR|URL is required.');
    const config = processConfig({}, { [ENV_VARS.natsUrl]: values.nats });
    const nats = config.nats!;
    const threads = values.threads === undefined ? undefined : parseCount('threads', values.threads, 1, 1);
    const graceMs = parseCount('grace', values.grace, 10, 0) * 1_000;
    const log: Logger = { info: lineLog('info'), warn: lineLog('warn'), error: lineLog('error') };
    const worker = await startWorker({ ...config, nats }, { dataDir: values.data, ...(threads !== undefined ? { threads } : {}), graceMs, logger: log });
    // A worker without readable data still runs (its tasks answer with an error naming it), but says so at once.
    await checkData(values.data).then(
      (datasets) => {
        if (datasets.length === 0) log.warn({ data: values.data }, 'no dataset in the data directory: every task will fail');
        else log.info({ datasets }, 'datasets found');
      },
      (err: unknown) => log.warn({ data: values.data, err: (err as Error).message }, 'the data directory cannot be read: every task will fail'),
    );
    log.info({ worker: worker.workerId, data: values.data, nats: nats.url }, 'svc worker running; stop with Ctrl-C or SIGTERM');
    const signal = await shutdownSignal();
    log.info({ worker: worker.workerId, signal }, 'stopping');
    await worker.stop();
    log.info({ worker: worker.workerId, completed: worker.loop.completed }, 'stopped');
    return 0;
  },
};
