/**
 * `npm run bench -- http`: HTTP throughput and latency of the real service, autocannon against servers listening on
 * 127.0.0.1, 50 connections, 10 s per measurement after a 2 s warm-up:
 *
 * - `cached_stats`: `GET /v1/historical/stats?lat=50.8466&lon=4.3519&radius=25` with a key, answered from the cache
 *   (warmed first; `X-Cache: hit` checked before and after);
 * - `scales_304`: `GET /v1/scales` revalidated with `If-None-Match` (every answer a 304);
 * - `key_info`: `GET /v1/key` with the key, the cheapest keyed route (auth, rate limit, a small body): the floor that
 *   any keyed answer pays, so the gap between it and `cached_stats` is what the statistics themselves cost;
 * - `hello`: a bare Fastify app with one JSON route, the yardstick; measured first and last, the mean is the reference.
 *
 * Each server runs in its own forked child process (bench/http-child.ts: same Node binary and flags, logging off);
 * autocannon runs in this process, so the load generator never shares an event loop with a server. Besides wall-clock
 * req/s, each run reports requests per CPU-second of the server process, which other load on a shared machine
 * changes far less. `BENCH_HTTP_CPU_PROF=<dir>` writes a V8 CPU profile of the service process into <dir>.
 */
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generatePreset } from '../src/model/generate.js';
import { PROJECT_ROOT } from '../src/util/paths.js';
import { load, startChild, type LoadSpec, type ServerChild } from './http-load.js';
import type { BenchResult } from './registry.js';

const CONNECTIONS = 50;
const SECONDS = 10;
const WARMUP_SECONDS = 2;
const STATS_PATH = '/v1/historical/stats?lat=50.8466&lon=4.3519&radius=25';
/** Targets: cached statistics at least this share of the hello req/s; p99 below this at 50 connections. */
const TARGET_RATIO = 0.8;
const TARGET_P99_MS = 20;
/** The datasets of the fixture preset. */
const DATASETS = ['brussels_extended', 'ghent', 'belgium_lowres'];

/** The fixture datasets of the tests when present, else the same preset generated once into data/bench-http. */
async function benchData(): Promise<string> {
  const present = (dir: string) =>
    Promise.all(DATASETS.map((d) => access(join(dir, d, '.zmetadata')))).then(() => true, () => false);
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

/** One measurement: its load figures plus the server's CPU time over it. */
interface Measured {
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requests: number;
  /** Requests answered per CPU-second of the server process. */
  readonly perCpuS: number;
}

/** Warms up, then measures `spec` against `server` (reading its CPU time around the measured run). */
async function measure(server: ServerChild, spec: Omit<LoadSpec, 'connections' | 'seconds'>): Promise<Measured> {
  await load({ ...spec, connections: CONNECTIONS, seconds: WARMUP_SECONDS });
  const cpu0 = await server.cpuSeconds();
  const result = await load({ ...spec, connections: CONNECTIONS, seconds: SECONDS });
  const cpuS = (await server.cpuSeconds()) - cpu0;
  return { rps: result.rps, p50Ms: result.p50Ms, p99Ms: result.p99Ms, requests: result.requests, perCpuS: result.requests / cpuS };
}

const round = (value: number, digits = 0) => Number(value.toFixed(digits));

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

    const auth = { authorization: `Bearer ${service.key!}` };
    const statsUrl = `${service.url}${STATS_PATH}`;
    await check(statsUrl, auth, 200, 'miss');
    await check(statsUrl, auth, 200, 'hit');
    const etag = (await check(`${service.url}/v1/scales`, {}, 200)).get('etag')!;
    const revalidate = { 'if-none-match': etag };
    await check(`${service.url}/v1/scales`, revalidate, 304);

    const helloSpec = { url: `${hello.url}/hello`, status: 200 };
    const helloFirst = await measure(hello, helloSpec);
    const stats = await measure(service, { url: statsUrl, headers: auth, status: 200 });
    const keyInfo = await measure(service, { url: `${service.url}/v1/key`, headers: auth, status: 200 });
    const scales = await measure(service, { url: `${service.url}/v1/scales`, headers: revalidate, status: 304 });
    const helloLast = await measure(hello, helloSpec);
    await check(statsUrl, auth, 200, 'hit');

    const helloRps = (helloFirst.rps + helloLast.rps) / 2;
    const helloPerCpu = (helloFirst.perCpuS + helloLast.perCpuS) / 2;
    const figures = {
      connections: CONNECTIONS,
      seconds: SECONDS,
      hello_rps: round(helloRps),
      cached_stats_rps: round(stats.rps),
      scales_304_rps: round(scales.rps),
      key_info_rps: round(keyInfo.rps),
      ratio_cached_stats_to_hello: round(stats.rps / helloRps, 2),
      ratio_scales_to_hello: round(scales.rps / helloRps, 2),
      ratio_key_info_to_hello: round(keyInfo.rps / helloRps, 2),
      ratio_cached_stats_to_hello_per_cpu: round(stats.perCpuS / helloPerCpu, 2),
      ratio_scales_to_hello_per_cpu: round(scales.perCpuS / helloPerCpu, 2),
      p50_ms: {
        hello: Math.max(helloFirst.p50Ms, helloLast.p50Ms), cached_stats: stats.p50Ms, key_info: keyInfo.p50Ms, scales_304: scales.p50Ms,
      },
      p99_ms: {
        hello: Math.max(helloFirst.p99Ms, helloLast.p99Ms), cached_stats: stats.p99Ms, key_info: keyInfo.p99Ms, scales_304: scales.p99Ms,
      },
      targets: { cached_stats_ratio_min: TARGET_RATIO, p99_max_ms: TARGET_P99_MS },
      target_ratio_met: stats.rps / helloRps >= TARGET_RATIO,
      target_p99_met: stats.p99Ms < TARGET_P99_MS && scales.p99Ms < TARGET_P99_MS,
    };
    const row = (name: string, m: Measured) => ({
      target: name,
      'req/s': round(m.rps),
      'p50 ms': m.p50Ms,
      'p99 ms': m.p99Ms,
      requests: m.requests,
      'req per server CPU-s': round(m.perCpuS),
    });
    return {
      name: 'http',
      title: `HTTP on 127.0.0.1: autocannon, ${CONNECTIONS} connections, ${SECONDS} s per run (servers in child processes, logging off)`,
      columns: ['target', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'req per server CPU-s'],
      rows: [
        row('hello (first)', helloFirst),
        row('cached_stats', stats),
        row('key_info', keyInfo),
        row('scales_304', scales),
        row('hello (last)', helloLast),
      ],
      notes: [
        `cached_stats / hello: ${figures.ratio_cached_stats_to_hello} by req/s (target >= ${TARGET_RATIO}), ` +
          `${figures.ratio_cached_stats_to_hello_per_cpu} per server CPU-second.`,
        `scales_304 / hello: ${figures.ratio_scales_to_hello} by req/s, ${figures.ratio_scales_to_hello_per_cpu} per server CPU-second.`,
        `key_info / hello: ${figures.ratio_key_info_to_hello} by req/s (the floor of any keyed route).`,
        `p99 target < ${TARGET_P99_MS} ms at ${CONNECTIONS} connections: ${figures.target_p99_met ? 'met' : 'missed'}.`,
        'hello = the mean of the first and last hello runs; data: ' + dataDir,
      ],
      figures,
    };
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await rm(tmp, { recursive: true, force: true });
  }
}
