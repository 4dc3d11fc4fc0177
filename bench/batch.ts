/**
 * `npm run bench -- batch [--data DIR] [--rounds N]`: 1,000 points asked in one `POST /v1/historical/batch` against
 * the same 1,000 points asked as 1,000 `GET /v1/historical/stats` requests, over HTTP against the real service
 * listening in a child process (bench/http-child.ts) on the demo datasets (`data/demo`, made by `svc demo`; `--data`
 * names another directory). Target: the hot batch at least 5× faster than the hot single requests sent one after the
 * other (a client's loop); single requests 8 at a time are shown too.
 *
 * Cold: two disjoint sets of 1,000 points on a 14 m grid around the Grand-Place, one answered as a batch, the other as
 * single requests (8 at a time), each computed for the first time. Hot: both ways over the batch's set, now cached
 * (every location checked `hit`); `--rounds` (default 3) rounds, the median reported.
 */
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../src/util/paths.js';
import { startChild, type ServerChild } from './http-load.js';
import type { BenchResult } from './registry.js';

const POINTS = 1_000;
const TARGET_SPEEDUP = 5;
const CONCURRENT = 8;

/** 1,000 points on a 40 × 25 grid, about 14 m apart, starting `shift` grid steps east of the Grand-Place block. */
function grid(shift: number): { id: string; lat: number; lon: number }[] {
  return Array.from({ length: POINTS }, (_, i) => ({
    id: `p${i}`,
    lat: Number((50.8445 + Math.floor(i / 25) * 0.000125).toFixed(5)),
    lon: Number((4.3480 + ((i % 25) + shift) * 0.0002).toFixed(5)),
  }));
}

/** One batch of `points`; returns its time in ms and how many were cache hits. */
async function batch(url: string, key: string, points: ReturnType<typeof grid>): Promise<{ ms: number; hits: number; ok: number }> {
  const t0 = performance.now();
  const res = await fetch(`${url}/v1/historical/batch`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ locations: points }),
  });
  const body = (await res.json()) as { results: { ok: boolean; cache?: string }[] };
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`batch answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return { ms, hits: body.results.filter((r) => r.cache === 'hit').length, ok: body.results.filter((r) => r.ok).length };
}

/** The points as single requests, `parallel` at a time; returns the time in ms and the cache hits. */
async function singles(url: string, key: string, points: ReturnType<typeof grid>, parallel: number): Promise<{ ms: number; hits: number; ok: number }> {
  let next = 0;
  let hits = 0;
  let ok = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < points.length) {
      const p = points[next++]!;
      const res = await fetch(`${url}/v1/historical/stats?lat=${p.lat}&lon=${p.lon}`, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      if (res.status === 200) ok++;
      if (res.headers.get('x-cache') === 'hit') hits++;
    }
  }));
  return { ms: performance.now() - t0, hits, ok };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round = (v: number, digits = 0) => Number(v.toFixed(digits));

/** The measured times of one comparison, ms. */
export interface BatchComparison {
  readonly coldBatch: number;
  readonly coldSingles: number;
  readonly hotBatch: number;
  readonly hotSequential: number;
  readonly hotConcurrent: number;
}

/** The comparison on the datasets of `dataDir` (also a section of `npm run bench -- area`). */
export async function compareBatch(dataDir: string, rounds: number): Promise<BatchComparison> {
  await access(join(dataDir, 'brussels_extended')).catch(() => {
    throw new Error(`No demo datasets in ${dataDir}: run \`node bin/svc.js demo\` once, or name a directory with --data.`);
  });
  const tmp = await mkdtemp(join(tmpdir(), 'svc-bench-batch-'));
  let service: ServerChild | undefined;
  try {
    service = await startChild(['service', dataDir, join(tmp, 'svc.sqlite')]);
    const key = await service.newKey();
    const batched = grid(0);
    const single = grid(30);
    const coldBatch = await batch(service.url, key, batched);
    const coldSingles = await singles(service.url, key, single, CONCURRENT);
    if (coldBatch.ok !== POINTS || coldSingles.ok !== POINTS) throw new Error(`not every point was answered (batch ${coldBatch.ok}, singles ${coldSingles.ok})`);
    const hot = { batch: [] as number[], sequential: [] as number[], concurrent: [] as number[] };
    for (let r = 0; r < rounds; r++) {
      const b = await batch(service.url, key, batched);
      const s = await singles(service.url, key, batched, 1);
      const c = await singles(service.url, key, batched, CONCURRENT);
      if (b.hits !== POINTS || s.hits !== POINTS || c.hits !== POINTS) throw new Error(`hot rounds must be all cache hits (batch ${b.hits}, singles ${s.hits}, ${c.hits})`);
      hot.batch.push(b.ms);
      hot.sequential.push(s.ms);
      hot.concurrent.push(c.ms);
    }
    return { coldBatch: coldBatch.ms, coldSingles: coldSingles.ms, hotBatch: median(hot.batch), hotSequential: median(hot.sequential), hotConcurrent: median(hot.concurrent) };
  } finally {
    await service?.stop();
    await rm(tmp, { recursive: true, force: true });
  }
}

/** The comparison's figures and the hot speed-up over sequential single requests. */
export function batchFigures(c: BatchComparison, rounds: number): Record<string, number> {
  return {
    points: POINTS,
    cold_batch_ms: round(c.coldBatch),
    cold_singles_concurrent_ms: round(c.coldSingles),
    hot_batch_ms: round(c.hotBatch, 1),
    hot_singles_sequential_ms: round(c.hotSequential, 1),
    hot_singles_concurrent_ms: round(c.hotConcurrent, 1),
    hot_speedup_vs_sequential: round(c.hotSequential / c.hotBatch, 1),
    hot_speedup_vs_concurrent: round(c.hotConcurrent / c.hotBatch, 1),
    cold_speedup_vs_concurrent: round(c.coldSingles / c.coldBatch, 2),
    rounds,
    target_speedup: TARGET_SPEEDUP,
  };
}

/** Runs the benchmark. */
export async function run(args: readonly string[] = []): Promise<BenchResult> {
  const option = (name: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : undefined; };
  const dataDir = resolve(option('data') ?? join(PROJECT_ROOT, 'data', 'demo'));
  const rounds = Number(option('rounds') ?? 3);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 50) throw new Error('--rounds must be a whole number from 1 to 50.');
  const c = await compareBatch(dataDir, rounds);
  const speedup = c.hotSequential / c.hotBatch;
  const row = (way: string, cold: number | string, hotMs: number) => ({ way, cold_ms: typeof cold === 'number' ? round(cold) : cold, hot_ms: round(hotMs, 1), per_point_hot_ms: round(hotMs / POINTS, 3) });
  return {
    name: 'batch',
    title: `${POINTS} points: one POST /v1/historical/batch against ${POINTS} GET /v1/historical/stats over HTTP (demo data)`,
    columns: ['way', 'cold_ms', 'hot_ms', 'per_point_hot_ms'],
    rows: [
      row('one batch', c.coldBatch, c.hotBatch),
      row(`singles, ${CONCURRENT} at a time`, c.coldSingles, c.hotConcurrent),
      row('singles, one after the other', '-', c.hotSequential),
    ],
    notes: [
      `Hot batch ${speedup.toFixed(1)}× faster than sequential single requests (target ≥ ${TARGET_SPEEDUP}×), ${(c.hotConcurrent / c.hotBatch).toFixed(1)}× faster than ${CONCURRENT} at a time.`,
      'Cold: the batch computes 4 locations at a time through one work gate (it never takes the whole compute pool); the singles run 8 at a time on a disjoint set of points.',
    ],
    figures: batchFigures(c, rounds),
    ...(speedup < TARGET_SPEEDUP ? { failed: true, exitCode: 1 } : {}),
  };
}
