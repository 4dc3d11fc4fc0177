/**
 * `svc model-service`: runs the stand-in model service as its own process over a data directory, for APIs configured
 * with `SVC_MODEL_SERVICE_URL`. SIGINT or SIGTERM stops it. The HTTP contract is docs/model-service.md.
 */
import { parseArgs } from 'node:util';
import { ValidationError } from '../../errors.js';
import { DEFAULT_MODEL_SEED } from '../../model-service/connect.js';
import { startModelService } from '../../model-service/start.js';
import type { Command } from '../command.js';
import { parseCount, processConfig, shutdownSignal } from '../options.js';

/** Port the model service listens on unless told otherwise. */
const DEFAULT_MODEL_SERVICE_PORT = 8090;

const USAGE = `Usage: svc model-service [--data DIR] [--host HOST] [--port N] [--seed N] [--cache-mb N]

Serves live and forecast hourly records and hourly grid slices of every dataset under DIR, replaying each dataset's
reference year at the current local hour-of-year with deterministic perturbation (docs/model-service.md).
Options:
  --data DIR     datasets directory (default SVC_DATA_DIR, else ./data)
  --host HOST    interface to listen on (default 127.0.0.1)
  --port N       port (default ${DEFAULT_MODEL_SERVICE_PORT}; 0 picks a free one)
  --seed N       perturbation seed, a non-negative integer (default ${DEFAULT_MODEL_SEED}); the API's embedded service uses ${DEFAULT_MODEL_SEED}
  --cache-mb N   decoded-chunk cache budget in MiB (default 256)
Point the API at it with SVC_MODEL_SERVICE_URL=http://HOST:PORT.`;

/** `svc model-service`. */
export const modelServiceCommand: Command = {
  path: ['model-service'],
  summary: 'Run the stand-in model service (live and forecast data) as its own process',
  usage: USAGE,
  async run(args) {
    const { values } = parseArgs({
      args,
      strict: true,
      options: {
        data: { type: 'string' }, host: { type: 'string' }, port: { type: 'string' },
        seed: { type: 'string' }, 'cache-mb': { type: 'string' },
      },
    });
    const config = processConfig({ dataDir: values.data });
    const host = values.host ?? '127.0.0.1';
    if (host.trim() === '') throw new ValidationError('--host must not be empty.');
    const port = parseCount('port', values.port, DEFAULT_MODEL_SERVICE_PORT);
    if (port > 65_535) throw new ValidationError(`--port must be at most 65535, got ${port}.`);
    const seed = parseCount('seed', values.seed, DEFAULT_MODEL_SEED);
    const cacheMb = parseCount('cache-mb', values['cache-mb'], 256, 1);

    const stopped = shutdownSignal();
    const running = await startModelService({
      dataDir: config.dataDir, host, port, seed, chunkCacheBytes: cacheMb * 1024 * 1024,
    });
    const served = running.datasets.length > 0 ? running.datasets.join(', ') : 'no datasets (generate some with svc data generate)';
    console.log(`svc-model-service listening on ${running.url} (data ${config.dataDir}: ${served})`);

    const signal = await stopped;
    console.log(`${signal}: stopping…`);
    await running.close();
    console.log('stopped');
    return 0;
  },
};
