/**
 * `npm run bench -- http`: HTTP throughput and latency of the real service, autocannon against servers listening on
 * 127.0.0.1, 50 connections. After a 2 s warm-up per target, seven rounds each run every target for 3 s in turn, so
 * drift of a shared machine reaches the yardstick and the service alike; a ratio to hello is the median of the
 * per-round ratios. Targets:
 *
 * - `cached_stats`: `GET /v1/historical/stats?lat=50.8466&lon=4.3519&radius=25` with a key, answered from the cache
 *   (warmed first; `X-Cache: hit` checked before and after);
 * - `scales_304`: `GET /v1/scales` revalidated with `If-None-Match` (every answer a 304);
 * - `key_info`: `GET /v1/key` with the key, the cheapest keyed route (auth, rate limit, a small body): the floor that
 *   any keyed answer pays, so the gap between it and `cached_stats` is what the statistics themselves cost;
 * - `hello`: a bare Fastify app with one JSON route, the yardstick.
 *
 * Each keyed slice (warm-up or measured) runs with a key of its own, issued just before it with the highest limit an
 * operator may give (1,000,000 per minute): a key then serves one slice of 3 s, and reaching its limit would take over
 * 330,000 req/s, whatever the machine (one key for the whole run was used up at about 25,000 req/s).
 *
 * Each server runs in its own forked child process (bench/http-child.ts: same Node binary and flags, logging off);
 * autocannon runs in this process, so the load generator never shares an event loop with a server. Besides wall-clock
 * req/s, each run reports requests per CPU-second of the server process, which other load on a shared machine
 * changes far less. `BENCH_HTTP_CPU_PROF=<dir>` writes a V8 CPU profile of the service process into <dir>;
 * `BENCH_HTTP_ROUNDS` and `BENCH_HTTP_SLICE_S` shorten a run to check that it completes (the figures then mean little).
 */
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generatePreset } from '../src/model/generate.js';
import { MANIFEST_FILE } from '../src/store/chunk-manifest.js';
import { presetPlans } from '../src/model/presets.js';
import { PROJECT_ROOT } from '../src/util/paths.js';
import { load, startChild, type LoadSpec, type ServerChild } from './http-load.js';
import type { BenchResult } from './registry.js';

const CONNECTIONS = 50;

/** A positive whole number from the environment variable `name`, else `fallback`. */
function countFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[1-9]\d{0,2}$/.test(raw)) throw new Error(`${name} must be a whole number from 1 to 999 (got ${JSON.stringify(raw)}).`);
  return Number(raw);
}

/** Measured rounds; each round runs every target once, for SLICE_SECONDS, in the same order. */
const ROUNDS = countFromEnv('BENCH_HTTP_ROUNDS', 7);
const SLICE_SECONDS = countFromEnv('BENCH_HTTP_SLICE_S', 3);
const WARMUP_SECONDS = 2;
const STATS_PATH = '/v1/historical/stats?lat=50.8466&lon=4.3519&radius=25';
/** Targets: cached statistics at least this share of the hello req/s; p99 below this at 50 connections. */
const TARGET_RATIO = 0.8;
const TARGET_P99_MS = 20;
/** The datasets of the fixture preset. */
const DATASETS = presetPlans('fixture').map((plan) => plan.id);

/** The fixture datasets of the tests when present, else the same preset generated once into data/bench-http. */
export async function benchData(): Promise<string> {
  const present = (dir: string) =>
    Promise.all(DATASETS.map((d) => access(join(dir, d, MANIFEST_FILE)))).then(() => true, () => false);
  const fixtures = join(PROJECT_ROOT, '.fixtures', 'data');
  if (await present(fixtures)) return fixtures;
  const own = join(PROJECT_ROOT, 'data', 'bench-http');
  if (!(await present(own))) {
    console.log('Generating the fixture datasets into data/bench-http (once; seconds)…');
    await generatePreset({ preset: 'fixture', outDir: own, seed: 1, progress: false });
  }
  return own;
}

/** GET `url`; throws unless the status (and X-Cache, when given) is as expected. Returns the response headers. */
async function check(url: string, headers: Record<string, string>, status: number, xCache?: string): Promise<Headers> {
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  if (res.status !== status || (xCache !== undefined && res.headers.get('x-cache') !== xCache)) {
    const expected = `${status}${xCache ? ` with X-Cache ${xCache}` : ''}`;
    throw new Error(`GET ${url}: expected ${expected}, got ${res.status} X-Cache ${res.headers.get('x-cache')}.`);
  }
  return res.headers;
}

/** One slice: load figures plus the server's CPU time over it. */
interface Slice {
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requests: number;
  readonly cpuS: number;
}

/** Runs `spec` against `server` for `seconds`, reading the server's CPU time around it. */
async function slice(server: ServerChild, spec: Omit<LoadSpec, 'connections' | 'seconds'>, seconds: number): Promise<Slice> {
  const cpu0 = await server.cpuSeconds();
  const result = await load({ ...spec, connections: CONNECTIONS, seconds });
  const cpuS = (await server.cpuSeconds()) - cpu0;
  return { rps: result.rps, p50Ms: result.p50Ms, p99Ms: result.p99Ms, requests: result.requests, cpuS };
}

const round = (value: number, digits = 0) => Number(value.toFixed(digits));

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A target's slices summed up: median req/s over rounds, median p50, worst p99, requests per server CPU-second. */
interface Summary {
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requests: number;
  readonly perCpuS: number;
}

function summarize(slices: readonly Slice[]): Summary {
  const requests = slices.reduce((sum, s) => sum + s.requests, 0);
  return {
    rps: median(slices.map((s) => s.rps)),
    p50Ms: median(slices.map((s) => s.p50Ms)),
    p99Ms: Math.max(...slices.map((s) => s.p99Ms)),
    requests,
    perCpuS: requests / slices.reduce((sum, s) => sum + s.cpuS, 0),
  };
}

/** Median over rounds of the per-round ratio `of / to` (both measured seconds apart, so machine drift cancels). */
function pairedRatio(of: readonly Slice[], to: readonly Slice[]): number {
  return median(of.map((s, i) => s.rps / to[i]!.rps));
}

/** Runs the HTTP benchmark. */
export async function run(): Promise<BenchResult> {
  const dataDir = await benchData();
  const tmp = await mkdtemp(join(tmpdir(), 'svc-bench-http-'));
  const profileDir = process.env.BENCH_HTTP_CPU_PROF;
  const profileArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(profileDir)}`] : [];
  const children: ServerChild[] = [];
  try {
    const hello = await startChild(['hello']);
    children.push(hello);
    const service = await startChild(['service', dataDir, join(tmp, 'svc.sqlite')], profileArgs);
    children.push(service);

    const auth = { authorization: `Bearer ${await service.newKey()}` };
    const statsUrl = `${service.url}${STATS_PATH}`;
    await check(statsUrl, auth, 200, 'miss');
    await check(statsUrl, auth, 200, 'hit');
    const etag = (await check(`${service.url}/v1/scales`, {}, 200)).get('etag')!;
    const revalidate = { 'if-none-match': etag };
    await check(`${service.url}/v1/scales`, revalidate, 304);

    // `keyed`: the slice sends a key, a fresh one each time (see the top of this file).
    const targets = {
      hello: { server: hello, keyed: false, spec: { url: `${hello.url}/hello`, status: 200 } },
      cached_stats: { server: service, keyed: true, spec: { url: statsUrl, status: 200 } },
      key_info: { server: service, keyed: true, spec: { url: `${service.url}/v1/key`, status: 200 } },
      scales_304: { server: service, keyed: false, spec: { url: `${service.url}/v1/scales`, headers: revalidate, status: 304 } },
    };
    type Target = keyof typeof targets;
    const names = Object.keys(targets) as Target[];
    /** The load spec of one slice of `name`, with a key of its own when the target is keyed. */
    const specOf = async (name: Target): Promise<Omit<LoadSpec, 'connections' | 'seconds'>> => {
      const { spec, keyed } = targets[name];
      return keyed ? { ...spec, headers: { authorization: `Bearer ${await service.newKey()}` } } : spec;
    };
    for (const name of names) await load({ ...(await specOf(name)), connections: CONNECTIONS, seconds: WARMUP_SECONDS });
    const slices = Object.fromEntries(names.map((name) => [name, [] as Slice[]])) as Record<Target, Slice[]>;
    for (let r = 0; r < ROUNDS; r++) {
      for (const name of names) slices[name].push(await slice(targets[name].server, await specOf(name), SLICE_SECONDS));
    }
    await check(statsUrl, auth, 200, 'hit');

    const summary = Object.fromEntries(names.map((name) => [name, summarize(slices[name])])) as Record<Target, Summary>;
    const ratio = (name: Target) => round(pairedRatio(slices[name], slices.hello), 2);
    const perCpuRatio = (name: Target) => round(summary[name].perCpuS / summary.hello.perCpuS, 2);
    const statsRatio = pairedRatio(slices.cached_stats, slices.hello);
    const figures = {
      connections: CONNECTIONS,
      rounds: ROUNDS,
      seconds_per_slice: SLICE_SECONDS,
      hello_rps: round(summary.hello.rps),
      cached_stats_rps: round(summary.cached_stats.rps),
      scales_304_rps: round(summary.scales_304.rps),
      key_info_rps: round(summary.key_info.rps),
      ratio_cached_stats_to_hello: ratio('cached_stats'),
      ratio_scales_to_hello: ratio('scales_304'),
      ratio_key_info_to_hello: ratio('key_info'),
      ratio_cached_stats_to_hello_per_cpu: perCpuRatio('cached_stats'),
      ratio_scales_to_hello_per_cpu: perCpuRatio('scales_304'),
      ratio_cached_stats_to_hello_by_round: slices.cached_stats.map((s, i) => round(s.rps / slices.hello[i]!.rps, 2)),
      p50_ms: Object.fromEntries(names.map((name) => [name, summary[name].p50Ms])),
      p99_ms: Object.fromEntries(names.map((name) => [name, summary[name].p99Ms])),
      targets: { cached_stats_ratio_min: TARGET_RATIO, p99_max_ms: TARGET_P99_MS },
      target_ratio_met: statsRatio >= TARGET_RATIO,
      target_p99_met: summary.cached_stats.p99Ms < TARGET_P99_MS && summary.scales_304.p99Ms < TARGET_P99_MS,
    };
    const row = (name: Target) => ({
      target: name,
      'req/s': round(summary[name].rps),
      'p50 ms': summary[name].p50Ms,
      'p99 ms': summary[name].p99Ms,
      requests: summary[name].requests,
      'req per server CPU-s': round(summary[name].perCpuS),
      'ratio to hello': name === 'hello' ? 1 : ratio(name),
    });
    return {
      name: 'http',
      title:
        `HTTP on 127.0.0.1: autocannon, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SLICE_SECONDS} s per target ` +
        '(servers in child processes, logging off)',
      columns: ['target', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'req per server CPU-s', 'ratio to hello'],
      rows: names.map(row),
      notes: [
        `cached_stats / hello: ${figures.ratio_cached_stats_to_hello} by req/s (median of the per-round ratios ` +
          `${figures.ratio_cached_stats_to_hello_by_round.join(', ')}; target >= ${TARGET_RATIO}: ` +
          `${figures.target_ratio_met ? 'met' : 'missed'}), ${figures.ratio_cached_stats_to_hello_per_cpu} per server CPU-second.`,
        `scales_304 / hello: ${figures.ratio_scales_to_hello} by req/s, ${figures.ratio_scales_to_hello_per_cpu} per server CPU-second.`,
        `key_info / hello: ${figures.ratio_key_info_to_hello} by req/s (the floor of a keyed route through the full application).`,
        `p99 target < ${TARGET_P99_MS} ms at ${CONNECTIONS} connections (worst slice): ${figures.target_p99_met ? 'met' : 'missed'}.`,
        'req/s = median over rounds; p50 = median over rounds; p99 = worst round; data: ' + dataDir,
      ],
      figures,
    };
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await rm(tmp, { recursive: true, force: true });
  }
}
