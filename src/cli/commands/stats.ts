import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveCoverage } from '../../cities/coverage.js';
import { STAT_METRICS, type StatMetric } from '../../cities/city-types.js';
import { createLocalCompute } from '../../compute/local-compute.js';
import { OutsideCoverageError, ValidationError } from '../../errors.js';
import { roundCoord } from '../../geo/round.js';
import { answerMetrics, checkCityMetrics, coveringCityOf, statsRequestAt } from '../../services/historical-answer.js';
import { statsEnvelope } from '../../services/stats-envelope.js';
import { toCachedStats } from '../../services/stats-cache.js';
import type { Command } from '../command.js';
import { parseCount, parseNumber } from '../options.js';
import { UsageError } from '../usage-error.js';

const USAGE = `Usage: svc stats --data DIR --lat LAT --lon LON [--radius M] [--metrics air,wind,thermal] [--threads N]

Computes the annual statistics of one location exactly as GET /v1/historical/stats does (same sampling, kernels and
envelope) and prints the envelope JSON. Inside the Brussels zone the street-level model (brussels_extended) answers;
elsewhere in Belgium, Ghent's zone included, the nationwide belgium_lowres, which ignores --radius. Inside a covered
city only the metrics that city models are answered.`;

/** Parses `--metrics`: a comma-separated subset of air, wind, thermal. */
function parseMetrics(value: string | undefined): StatMetric[] | undefined {
  if (value === undefined) return undefined;
  const names = value.split(',');
  for (const m of names) {
    if (!(STAT_METRICS as readonly string[]).includes(m)) {
      throw new ValidationError(`--metrics takes a comma-separated subset of air, wind, thermal; got '${m}'.`);
    }
  }
  return STAT_METRICS.filter((m) => names.includes(m));
}

/** `svc stats`. */
export const statsCommand: Command = {
  path: ['stats'],
  summary: 'Print the annual statistics envelope of one location',
  usage: USAGE,
  async run(args) {
    const { values } = parseArgs({
      args,
      strict: true,
      options: {
        data: { type: 'string' }, lat: { type: 'string' }, lon: { type: 'string' }, radius: { type: 'string' },
        metrics: { type: 'string' }, threads: { type: 'string' },
      },
    });
    if (!values.data) throw new UsageError('--data DIR is required.');
    const lat = parseNumber('lat', values.lat);
    const lon = parseNumber('lon', values.lon);
    if (lat === undefined || lon === undefined) throw new UsageError('--lat and --lon are required.');
    if (lat < -90 || lat > 90 || lon < -180 || lon > 180) throw new ValidationError('--lat/--lon are out of range.');
    const radius = parseNumber('radius', values.radius);
    if (radius !== undefined && !(radius >= 5 && radius <= 50)) throw new ValidationError('--radius must be 5 to 50 metres.');
    const requested = parseMetrics(values.metrics);
    const threads = values.threads === undefined ? 1 : parseCount('threads', values.threads, 1, 1);
    const [rlat, rlon] = [roundCoord(lat), roundCoord(lon)];
    const coverage = resolveCoverage(rlat, rlon);
    if (coverage.kind === 'outside') throw new OutsideCoverageError(`(${rlat}, ${rlon}) is outside every covered area.`);
    const where = { lat: rlat, lon: rlon, coverage };
    const city = coveringCityOf(where);
    checkCityMetrics(city, requested, STAT_METRICS);
    const request = statsRequestAt(where, radius);
    const compute = await createLocalCompute({ dataDir: resolve(values.data), threads });
    try {
      const cached = toCachedStats(await compute.computeStats(request));
      const metrics = answerMetrics({
        city, dataset: request.dataset, named: requested, held: STAT_METRICS, computed: (m) => cached.blocks[m] !== undefined,
      });
      console.log(JSON.stringify(JSON.parse(statsEnvelope({ city, address: null, lat: rlat, lon: rlon, stats: cached, metrics })), null, 2));
      return 0;
    } finally {
      await compute.close();
    }
  },
};
