/**
 * The contract of a flight group (`FlightGroup`: one computation per key), run against each implementation: within the
 * process (`SingleFlight`, test/services/cache-and-flight.test.ts) and across nodes through JetStream KV
 * (`ClusterFlight`, test/services/kv-stats-cache.test.ts). Concurrent callers of one key share one computation and its
 * outcome, success or failure; keys are apart; a settled key computes anew.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { CachedStats } from '../../src/services/stats-cache.js';
import type { FlightGroup } from '../../src/util/single-flight.js';

let seq = 0;
/** A flight key no other case uses (a shared flight group keeps its claims and cache across cases). */
const keyOf = () => `stats|contract|c1|v1|${(50 + ++seq / 1e4).toFixed(5)}|4.35000|25`;

const value = (tag: string): CachedStats => ({
  meta: { dataset: 'brussels_extended', reference_year: 2024, sampling: 'point', n_cells: 1, hours: 8784, generated_utc: tag },
  blocks: { air: '{"rating":8.1}' },
});

/** A promise and its resolver, to hold a computation open. */
function gate(): { readonly promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

/** Runs the flight group contract against the implementation `make` builds (values are cached statistics). */
export function describeFlightGroup(name: string, make: () => FlightGroup<CachedStats>): void {
  describe(`${name} (flight group contract)`, () => {
    let flight: FlightGroup<CachedStats>;
    beforeEach(() => {
      flight = make();
    });

    it('shares one computation and its answer among concurrent callers of a key', async () => {
      const key = keyOf();
      const held = gate();
      let runs = 0;
      const work = async () => {
        runs++;
        await held.promise;
        return value('shared');
      };
      const callers = [flight.run(key, work), flight.run(key, work), flight.run(key, work)];
      held.open();
      expect((await Promise.all(callers)).map((v) => v.meta.generated_utc)).toEqual(['shared', 'shared', 'shared']);
      expect(runs).toBe(1);
    });

    it('keeps keys apart: concurrent callers of two keys run two computations', async () => {
      const [a, b] = [keyOf(), keyOf()];
      const held = gate();
      const runs: string[] = [];
      const work = (tag: string) => async () => {
        runs.push(tag);
        await held.promise;
        return value(tag);
      };
      const answers = Promise.all([flight.run(a, work('a')), flight.run(b, work('b'))]);
      held.open();
      expect((await answers).map((v) => v.meta.generated_utc)).toEqual(['a', 'b']);
      expect(runs.sort()).toEqual(['a', 'b']);
    });

    it('hands a failure to every caller that joined it, then computes anew', async () => {
      const key = keyOf();
      const held = gate();
      let runs = 0;
      const failing = async (): Promise<CachedStats> => {
        runs++;
        await held.promise;
        throw new Error('compute failed');
      };
      const callers = [flight.run(key, failing), flight.run(key, failing)];
      held.open();
      for (const caller of callers) await expect(caller).rejects.toThrow('compute failed');
      expect(runs).toBe(1);
      await flight.settled();
      expect((await flight.run(key, async () => value('again'))).meta.generated_utc).toBe('again');
    });

    it('settles once every computation it runs has settled', async () => {
      const held = gate();
      let done = false;
      void flight.run(keyOf(), async () => {
        await held.promise;
        done = true;
        return value('late');
      });
      const settled = flight.settled().then(() => done);
      held.open();
      expect(await settled).toBe(true);
    });
  });
}
