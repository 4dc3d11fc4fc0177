/**
 * `npm run bench -- state`: what the shared state of a cluster costs an API node per request, over a real
 * nats-server (JetStream, file storage) on loopback started for the run: a rate-limit check, a burst of checks on one
 * key (batched) and on many keys, a read of the shared statistics cache, and a report admission.
 */
import { performance } from 'node:perf_hooks';
import { KvJobStore } from '../src/reports/jobs/kv-job-store.js';
import { KvRateLimiter } from '../src/keys/kv-rate-limiter.js';
import { KvStatsCache } from '../src/services/kv-stats-cache.js';
import { ClusterLink } from '../src/cluster/nats-connection.js';
import { statsCacheKey } from '../src/services/cache-keys.js';
import { startBenchNats } from './loopback-nats.js';
import type { BenchResult } from './registry.js';
import { percentile } from './timing.js';

const OPS = 2_000;

async function timeEach(n: number, op: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await op(i);
    ms.push(performance.now() - t);
  }
  return { p50: percentile(ms, 0.5), p99: percentile(ms, 0.99) };
}

async function timeAll(op: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await op();
  return performance.now() - t;
}

export async function run(): Promise<BenchResult> {
  const nats = await startBenchNats({ ackWaitMs: 30_000, maxDeliver: 3 });
  const link = ClusterLink.start({ url: nats.url, name: 'bench', ackWaitMs: 30_000, maxDeliver: 3, retryMs: 50 });
  try {
    await link.ready();
    const limiter = new KvRateLimiter(link);
    const now = Date.now();
    const check = await timeEach(OPS, (i) => limiter.consume(`key:${i % 50}`, 1e9, now));
    const burstOne = await timeAll(() => Promise.all(Array.from({ length: 200 }, () => limiter.consume('key:hot', 1e9, now))));
    const burstMany = await timeAll(() => Promise.all(Array.from({ length: 200 }, (_, i) => limiter.consume(`key:burst${i}`, 1e9, now))));
    const cache = new KvStatsCache(link);
    const key = statsCacheKey({ dataset: 'brussels_extended', contentVersion: 'c', computeVersion: 'v', lat: 50.8, lon: 4.35, radiusM: 25 });
    await cache.put(key, { meta: { dataset: 'brussels_extended', reference_year: 2024, sampling: 'radius', n_cells: 1, hours: 8784, generated_utc: '' }, blocks: { air: 'x'.repeat(1500), wind: 'y'.repeat(1500), thermal: 'z'.repeat(1500) } });
    const read = await timeEach(OPS, () => cache.get(key));
    const jobs = new KvJobStore(link);
    let n = 0;
    const admit = await timeEach(300, () => jobs.accept({
      id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`, keyId: 1, nowMs: now, quota: { day: '2026-01-01', limit: 1e6 },
      request: { address: 'a', lat: 50.8, lon: 4.35, radiusM: 10, lang: 'en', keyId: 1 },
    }));
    const fmt = (v: number) => v.toFixed(2);
    return {
      name: 'state',
      title: 'Shared state of a cluster node over NATS JetStream (loopback, file storage)',
      columns: ['operation', 'p50 ms', 'p99 ms', 'total ms'],
      rows: [
        { operation: `rate-limit check (${OPS}, 50 keys)`, 'p50 ms': fmt(check.p50), 'p99 ms': fmt(check.p99), 'total ms': '' },
        { operation: '200 concurrent checks of one key', 'p50 ms': '', 'p99 ms': '', 'total ms': fmt(burstOne) },
        { operation: '200 concurrent checks of 200 keys', 'p50 ms': '', 'p99 ms': '', 'total ms': fmt(burstMany) },
        { operation: `statistics cache read, 4.5 kB (${OPS})`, 'p50 ms': fmt(read.p50), 'p99 ms': fmt(read.p99), 'total ms': '' },
        { operation: 'report admission (quota + job), 300', 'p50 ms': fmt(admit.p50), 'p99 ms': fmt(admit.p99), 'total ms': '' },
      ],
      notes: ['Each operation is a few KV round trips; requests of one key arriving together are counted by one compare-and-set.'],
      figures: { rate_check_p50_ms: check.p50, burst_one_key_ms: burstOne, burst_many_keys_ms: burstMany, cache_read_p50_ms: read.p50, admission_p50_ms: admit.p50 },
    };
  } finally {
    await link.close();
    await nats.stop();
  }
}
