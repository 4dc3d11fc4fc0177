import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CITIES, getCity, streetLevelCities } from '../../cities/catalog.js';
import { createLocalCompute } from '../../compute/local-compute.js';
import { clusterPrecompute } from '../../nodes/cluster-precompute.js';
import { ENV_VARS } from '../../config.js';
import { ValidationError } from '../../errors.js';
import { checkPrecomputable, precomputeCity } from '../../services/precompute.js';
import { precomputeBar } from '../precompute-bar.js';
import type { Command } from '../command.js';
import { parseCount, processConfig } from '../options.js';
import { UsageError } from '../usage-error.js';

const USAGE = `Usage: svc precompute --data DIR --city ID [--threads N | --nats URL]

Computes point statistics for every outdoor cell of the city's dataset with all cores and writes the result grids
(rating and score per metric, air shares, annual means and limiting pollutant, wind comfort shares and windiest hour,
thermal comfort shares, summer night mean UTCI) to DIR/<dataset>.precomputed (Zarr, xarray-readable; svc atlas export
turns them into GeoTIFFs), with the city references used by thermal.summer_night_vs_city_c and air.benchmark.
Interrupted, it resumes where it stopped. A running server shows the new grids as the annual map layers without a
restart, within two minutes at most (it looks for a new precompute every 60 s and caches its map catalog 60 s). The
references are read once, when a process opens the dataset: restart the server (and every svc worker) for statistics
answers to use the new ones.
With --nats URL the chunk rows are computed by the cluster's workers (svc worker) instead of local threads; this
process plans, shows progress and writes the same output to DIR. Interrupted (this process or a worker), it resumes:
rows already saved are skipped, rows still queued are not queued twice. A lost connection to NATS (a broker restart)
is ridden out for up to SVC_NATS_OUTAGE_MS (default 60000): the bar shows the outage and the run goes on by itself.
Cities: ${streetLevelCities().map((c) => c.id).join(', ')} (the cities answered by a street-level dataset; the others
are answered by the nationwide dataset and have no grid of their own to precompute).`;

/** `svc precompute`. */
export const precomputeCommand: Command = {
  path: ['precompute'],
  summary: 'Precompute point statistics for every outdoor cell of a city (resumable)',
  usage: USAGE,
  async run(args) {
    const { values } = parseArgs({
      args, strict: true,
      options: { data: { type: 'string' }, city: { type: 'string' }, threads: { type: 'string' }, nats: { type: 'string' } },
    });
    if (values.nats !== undefined && values.threads !== undefined) {
      throw new UsageError('--threads is for a local run; with --nats the workers have their own threads.');
    }
    if (!values.data) throw new UsageError('--data DIR is required.');
    if (!values.city) throw new UsageError('--city ID is required.');
    const city = getCity(values.city);
    if (!city) throw new ValidationError(`Unknown city '${values.city}'; known: ${CITIES.map((c) => c.id).join(', ')}.`);
    checkPrecomputable(city);
    const threads = values.threads === undefined ? undefined : parseCount('threads', values.threads, 1, 1);
    const dataDir = resolve(values.data);
    // --nats is SVC_NATS_URL for this run; the queue's limits come from the environment, like a worker's.
    const nats = values.nats === undefined ? undefined : processConfig({}, { [ENV_VARS.natsUrl]: values.nats }).nats!;
    const cluster = nats === undefined ? undefined : await clusterPrecompute(nats.url, dataDir, city.dataset, nats);
    const compute = cluster?.compute ?? await createLocalCompute({ dataDir, threads });
    const started = performance.now();
    const bar = precomputeBar(city.dataset, cluster?.downSince);
    try {
      const summary = await precomputeCity(compute, dataDir, city, bar, cluster?.options);
      bar.done();
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(
        `Precomputed ${summary.cells} cells (${summary.rowsComputed} chunk rows, ${summary.rowsResumed} resumed) in ${seconds} s ` +
          `-> ${summary.dir}\nReferences: ${JSON.stringify(summary.references)}`,
      );
      return 0;
    } finally {
      bar.stop();
      await compute.close();
      await cluster?.close();
    }
  },
};
