/**
 * The shared statistics cache and single flight across nodes, over a real nats-server: the statistics cache and flight
 * group contracts (test/contracts/), and what only a shared flight does: concurrent requests for one key on three
 * nodes run one computation; a claim whose owner died is taken over once it expires; a claimant that fails leaves the
 * key to the next.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterFlight, KvStatsCache } from '../../src/services/kv-stats-cache.js';
import { hashedKey } from '../../src/cluster/kv-ops.js';
import { FLIGHT_BUCKET } from '../../src/cluster/names.js';
import type { ClusterLink } from '../../src/cluster/nats-connection.js';
import { statsCacheKey } from '../../src/services/cache-keys.js';
import type { CachedStats } from '../../src/services/stats-cache.js';
import { startNatsServer, type TestNatsServer } from '../cluster/support/nats-server.js';
import { startLinks, until } from '../cluster/support/links.js';
import { describeFlightGroup } from '../contracts/flight-contract.js';
import { describeStatsCache } from '../contracts/stats-cache-contract.js';

let nats: TestNatsServer;
let links: ClusterLink[];
let caches: KvStatsCache[];

beforeAll(async () => {
  nats = await startNatsServer();
  links = await startLinks(nats.url, 3);
  caches = links.map((l) => new KvStatsCache(l));
});
afterAll(async () => {
  await Promise.all(links.map((l) => l.close()));
  await nats.dispose();
});

let seq = 0;
const keyOf = () => statsCacheKey({ dataset: 'brussels_extended', contentVersion: 'c1', computeVersion: 'v1', lat: 50.8 + ++seq / 1e4, lon: 4.35, radiusM: 25 });
const value = (tag: string): CachedStats => ({
  meta: { dataset: 'brussels_extended', reference_year: 2024, sampling: 'radius', radius_m: 25, n_cells: 7, hours: 8784, generated_utc: tag },
  blocks: { air: '{"rating":8.1}', wind: '{"rating":"é ✓"}' },
});

describeStatsCache('KvStatsCache', () => ({ cache: new KvStatsCache(links[0]!), sibling: () => new KvStatsCache(links[1]!) }));

describeFlightGroup('ClusterFlight', () => new ClusterFlight({ link: links[0]!, cache: caches[0]!, owner: 'contract', claimMs: 60_000 }));

describe('the shared statistics cache across nodes', () => {

  it('runs one computation for concurrent requests on every node', async () => {
    const key = keyOf();
    let computations = 0;
    const flights = links.map((link, i) => new ClusterFlight({ link, cache: caches[i]!, owner: `node-${i}`, claimMs: 60_000 }));
    const work = (i: number) => async () => {
      computations++;
      await new Promise((r) => setTimeout(r, 100));
      const v = value(`computed by ${i}`);
      await caches[i]!.put(key, v);
      return v;
    };
    const answers = await Promise.all(flights.flatMap((f, i) => [f.run(key.id, work(i)), f.run(key.id, work(i))]));
    expect(computations).toBe(1);
    expect(new Set(answers.map((a) => a.meta.generated_utc)).size).toBe(1);
  });

  it('does not compute again when the claimant finishes between another node\'s look in the cache and its claim', async () => {
    const key = keyOf();
    let computations = 0;
    const work = (tag: string) => async () => {
      computations++;
      const v = value(tag);
      await caches[0]!.put(key, v);
      return v;
    };
    const first = new ClusterFlight({ link: links[0]!, cache: caches[0]!, owner: 'node-0', claimMs: 60_000 });
    // The second node's first look misses; before it can claim, the first node computes, stores and releases.
    let missed = false;
    class LateLook extends KvStatsCache {
      override async getById(id: string): Promise<CachedStats | undefined> {
        const found = await super.getById(id);
        if (found === undefined && !missed) {
          missed = true;
          await first.run(key.id, work('first'));
        }
        return found;
      }
    }
    const second = new ClusterFlight({ link: links[1]!, cache: new LateLook(links[1]!), owner: 'node-1', claimMs: 60_000 });
    const answer = await second.run(key.id, work('second'));
    expect(missed).toBe(true);
    expect(computations).toBe(1);
    expect(answer.meta.generated_utc).toBe('first');
  });

  it('takes over the claim of a node that died, once it has expired', async () => {
    const key = keyOf();
    const kv = await links[0]!.require().kvm.open(FLIGHT_BUCKET);
    await kv.create(hashedKey(key.id), JSON.stringify({ owner: 'dead', untilMs: Date.now() - 1 }));
    let ran = 0;
    const flight = new ClusterFlight({ link: links[1]!, cache: caches[1]!, owner: 'alive', claimMs: 60_000 });
    const answer = await flight.run(key.id, async () => {
      ran++;
      await caches[1]!.put(key, value('alive'));
      return value('alive');
    });
    expect(ran).toBe(1);
    expect(answer.meta.generated_utc).toBe('alive');
    expect((await kv.get(hashedKey(key.id)))?.operation).not.toBe('PUT'); // released after the work
  });

  it('leaves the key to another node when the claimant fails', async () => {
    const key = keyOf();
    const a = new ClusterFlight({ link: links[0]!, cache: caches[0]!, owner: 'a', claimMs: 60_000 });
    const b = new ClusterFlight({ link: links[1]!, cache: caches[1]!, owner: 'b', claimMs: 60_000 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const failing = a.run(key.id, async () => {
      await gate;
      throw new Error('compute failed');
    });
    // a holds the claim before b asks, so b waits on it.
    const kv = await links[0]!.require().kvm.open(FLIGHT_BUCKET);
    await until(async () => (await kv.get(hashedKey(key.id)))?.operation === 'PUT');
    const waiting = b.run(key.id, async () => {
      await caches[1]!.put(key, value('b'));
      return value('b');
    });
    release();
    await expect(failing).rejects.toThrow('compute failed');
    expect((await waiting).meta.generated_utc).toBe('b');
  });
});
