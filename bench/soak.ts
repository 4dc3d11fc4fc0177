/**
 * `npm run bench -- soak [--minutes N] [--rate R] [--fresh F] [--budget-mb M]`: does a node's memory stay within its
 * settings whatever the traffic? Starts `svc serve` on the fixture datasets (bench/soak-service.ts) with
 * `SVC_MEMORY_BUDGET_MB` = M (default 64, the smallest accepted, so the caches fill within a short run), drives it over
 * loopback HTTP at R statistics requests per second (default 60) for N minutes (default 4), a share F of them
 * (default 0.5) at locations never asked before, the rest repeating recent ones, and samples its resident memory
 * every 5 s. The statistics answers then number far more than the caches hold, so they must evict.
 *
 * It reports whether memory plateaus. RSS saws: evicted entries are old garbage that V8 frees at its next full
 * collection, minutes apart, so within a tooth it climbs by what the evicted entries held (several KB per fresh
 * location) and then drops. The test is therefore across teeth: the peak of the last third of the run may exceed the
 * peak of the two thirds before it by at most 5 % (an unbounded cache, at 3 to 12 KB per fresh location, raises every
 * peak; the middle third alone may lie between two teeth).
 * The least-squares slope of the last third is reported beside it. A soak at the default budget, as an operator would
 * run one: `--minutes 25 --rate 40 --fresh 0.3 --budget-mb 512`.
 * Writes bench/results/soak.json with the RSS samples.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheBudgets } from '../src/config/memory-budget.js';
import { loadConfig } from '../src/config.js';
import { benchData } from './http.js';
import { benchOptions, type BenchOptions, type BenchResult } from './registry.js';
import { startService, type SoakService } from './soak-service.js';

const SAMPLE_EVERY_MS = 5_000;
/** Requests in flight at most; a request due while this many wait is counted as skipped (the node fell behind). */
const MAX_IN_FLIGHT = 64;
/** Plateau: the peak RSS of the last third is at most this multiple of the peak before it. */
const PLATEAU_PEAK_RATIO = 1.05;
/** Distinct problem details kept for the report. */
const MAX_PROBLEMS = 10;
/** Locations a repeated request picks from: the most recent fresh ones. */
const HOT_SET = 500;
const MIB = 1024 * 1024;

/** The soak's parameters, from the command line. */
interface SoakParams {
  readonly minutes: number;
  readonly rate: number;
  readonly fresh: number;
  readonly budgetMb: number;
}

function params(options: BenchOptions = {}): SoakParams {
  const known = ['minutes', 'rate', 'fresh', 'budget-mb'];
  const unknown = Object.keys(options).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw new Error(`soak takes --${known.join(', --')}; not --${unknown.join(', --')}.`);
  const number = (name: string, fallback: number, min: number, max: number): number => {
    const raw = options[name];
    const value = raw === undefined ? fallback : Number(raw);
    if (!(value >= min && value <= max)) throw new Error(`--${name} must be a number from ${min} to ${max} (got ${raw}).`);
    return value;
  };
  return {
    minutes: number('minutes', 4, 0.5, 600),
    rate: number('rate', 60, 1, 1_000),
    fresh: number('fresh', 0.5, 0, 1),
    budgetMb: number('budget-mb', 64, 64, 1_048_576),
  };
}

/**
 * The i-th fresh location: a walk over the Brussels zone and the country around it (both covered by the fixture),
 * never twice the same point at 5 decimals.
 */
function freshLocation(i: number): { lat: number; lon: number } {
  const row = Math.floor(i / 1_000);
  const col = i % 1_000;
  return { lat: Number((50.70 + row * 0.01).toFixed(5)), lon: Number((4.20 + col * 0.00031).toFixed(5)) };
}

/** One RSS sample. */
type Sample = {
  readonly t_s: number;
  readonly rss_mb: number;
  readonly fresh: number;
  readonly requests: number;
};

/** Least-squares slope of y over x. */
function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** Drives `service` for the run, sampling RSS; returns the samples and the status counts. */
async function drive(service: SoakService, p: SoakParams): Promise<{ samples: Sample[]; statuses: Record<string, number>; problems: Record<string, number>; skipped: number }> {
  const statuses: Record<string, number> = {};
  // What the answers other than 200 said (status and problem detail), the first MAX_PROBLEMS distinct ones counted.
  const problems: Record<string, number> = {};
  const headers = { authorization: `Bearer ${service.key}` };
  const asked: string[] = [];
  let fresh = 0;
  let requests = 0;
  let inFlight = 0;
  let skipped = 0;
  let freshDebt = 0;
  const started = Date.now();
  const endMs = started + p.minutes * 60_000;
  const samples: Sample[] = [];
  const sample = async () => {
    samples.push({ t_s: Math.round((Date.now() - started) / 1000), rss_mb: Math.round((await service.rssBytes()) / MIB), fresh, requests });
  };
  await sample();
  const request = () => {
    if (inFlight >= MAX_IN_FLIGHT) {
      skipped++;
      return;
    }
    // Exactly the share F of requests is fresh over time (a running debt, no randomness).
    freshDebt += p.fresh;
    let query: string;
    if (freshDebt >= 1 || asked.length === 0) {
      freshDebt -= 1;
      const { lat, lon } = freshLocation(fresh++);
      query = `lat=${lat}&lon=${lon}`;
      asked.push(query);
      if (asked.length > HOT_SET) asked.shift();
    } else {
      query = asked[(requests * 7919) % asked.length]!;
    }
    requests++;
    inFlight++;
    fetch(`${service.url}/v1/historical/stats?${query}`, { headers })
      .then(async (res) => {
        const body = await res.text();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status !== 200) {
          let detail = body.slice(0, 200);
          try {
            detail = String((JSON.parse(body) as { detail?: unknown }).detail ?? detail);
          } catch {
            // Not a problem document: its first bytes are what it said.
          }
          const said = `${res.status} ${detail}`;
          if (said in problems || Object.keys(problems).length < MAX_PROBLEMS) problems[said] = (problems[said] ?? 0) + 1;
        }
      }, () => {
        statuses.error = (statuses.error ?? 0) + 1;
      })
      .finally(() => inFlight--);
  };
  let next = Date.now();
  let nextSample = started + SAMPLE_EVERY_MS;
  while (Date.now() < endMs) {
    request();
    next += 1000 / p.rate;
    if (Date.now() >= nextSample) {
      nextSample += SAMPLE_EVERY_MS;
      await sample();
    }
    const wait = next - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  await sample();
  return { samples, statuses, problems, skipped };
}

export async function run(args: readonly string[] = []): Promise<BenchResult> {
  const options = benchOptions(args);
  if (options === undefined) throw new Error(`soak: options are '--name value' pairs; got '${args.join(' ')}'.`);
  const p = params(options);
  const dataDir = await benchData();
  const dir = await mkdtemp(join(tmpdir(), 'svc-soak-'));
  const budgets = cacheBudgets(loadConfig({ SVC_MEMORY_BUDGET_MB: String(p.budgetMb) }));
  console.log(`Soak: ${p.minutes} min at ${p.rate} req/s, ${p.fresh * 100} % fresh, SVC_MEMORY_BUDGET_MB=${p.budgetMb} (statistics ${budgets.statistics / MIB} MiB, answers ${budgets.statsResponses / MIB} MiB)…`);
  const service = await startService(dataDir, join(dir, 'soak.sqlite'), { SVC_MEMORY_BUDGET_MB: String(p.budgetMb) });
  let result;
  try {
    result = await drive(service, p);
  } finally {
    await service.stop();
    await rm(dir, { recursive: true, force: true });
  }
  const { samples, statuses, problems, skipped } = result;
  const end = samples.at(-1)!.t_s;
  const last = samples.filter((s) => s.t_s >= (end * 2) / 3);
  const middle = samples.filter((s) => s.t_s >= end / 3 && s.t_s < (end * 2) / 3);
  const before = samples.filter((s) => s.t_s < (end * 2) / 3);
  const peak = (part: readonly Sample[]) => Math.max(...part.map((s) => s.rss_mb));
  const perMinute = slope(last.map((s) => s.t_s / 60), last.map((s) => s.rss_mb));
  const freshPerMinute = (last.at(-1)!.fresh - last[0]!.fresh) / ((last.at(-1)!.t_s - last[0]!.t_s) / 60);
  const kbPerFresh = freshPerMinute > 0 ? (perMinute * 1024) / freshPerMinute : 0;
  const peakRatio = peak(last) / peak(before);
  const plateau = peakRatio <= PLATEAU_PEAK_RATIO;
  const figures = {
    minutes: p.minutes, rate_per_s: p.rate, fresh_share: p.fresh, memory_budget_mb: p.budgetMb,
    requests: samples.at(-1)!.requests, fresh_locations: samples.at(-1)!.fresh, skipped, statuses, problems,
    rss_start_mb: samples[0]!.rss_mb, rss_end_mb: samples.at(-1)!.rss_mb, rss_max_mb: Math.max(...samples.map((s) => s.rss_mb)),
    middle_third_peak_mb: peak(middle), first_two_thirds_peak_mb: peak(before), last_third_peak_mb: peak(last), peak_ratio: Number(peakRatio.toFixed(3)),
    last_third_slope_mb_per_min: Number(perMinute.toFixed(2)), last_third_kb_per_fresh_location: Number(kbPerFresh.toFixed(2)),
    plateau, samples,
  };
  const every = Math.max(1, Math.floor(samples.length / 24));
  return {
    name: 'soak',
    title: `Soak: svc serve on the fixture, ${p.rate} req/s for ${p.minutes} min, ${p.fresh * 100} % fresh locations, SVC_MEMORY_BUDGET_MB=${p.budgetMb}`,
    columns: ['t_s', 'rss_mb', 'fresh', 'requests'],
    rows: samples.filter((_, i) => i % every === 0 || i === samples.length - 1),
    notes: [
      `RSS ${figures.rss_start_mb} MB at start, ${figures.rss_end_mb} MB at the end, ${figures.rss_max_mb} MB at most; ${figures.fresh_locations} fresh locations of ${figures.requests} requests (statuses ${JSON.stringify(statuses)}, ${skipped} skipped: node behind).`,
      `Peak RSS: ${figures.first_two_thirds_peak_mb} MB in the first two thirds (${figures.middle_third_peak_mb} in the middle one), ${figures.last_third_peak_mb} MB in the last (ratio ${figures.peak_ratio}); plateau (ratio <= ${PLATEAU_PEAK_RATIO}): ${plateau ? 'yes' : 'no'}.`,
      ...Object.entries(problems).map(([said, n]) => `${n} × ${said}`),
      `Slope of the last third: ${figures.last_third_slope_mb_per_min} MB/min, ${figures.last_third_kb_per_fresh_location} KB per fresh location (within one saw tooth: evicted entries not yet collected).`,
    ],
    figures,
  };
}
