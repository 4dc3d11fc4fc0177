/**
 * The A/B runner and its findings with contenders of known cost (no clock read by the assertions): units per round
 * balance a slow contender against fast ones (in multiples of a contender's placements), every contender gets the same
 * number of paired rounds, and a variant
 * declared a reference is reported slower but is never a regression.
 */
import { describe, expect, it } from 'vitest';
import { AA_SUFFIX, analyse, regressions } from '../../bench/workbench/ab-analysis.js';
import { runAb, type Contender } from '../../bench/workbench/ab-runner.js';
import { tableRows } from '../../bench/workbench/report.js';

/** A contender whose unit of work reports `ms` CPU milliseconds (with a small deterministic wobble). */
function fake(name: string, ms: number): Contender & { calls: number } {
  const c = {
    name, calls: 0,
    round: () => {
      c.calls++;
      return ms * (1 + 0.001 * ((c.calls * 7) % 5));
    },
  };
  return c;
}

describe('workbench A/B runner', () => {
  it('runs a slow contender one unit per round and fast ones as many as fit its time', () => {
    const fast = fake('release', 2);
    const twin = fake('release' + AA_SUFFIX, 2);
    const slow = fake('scalar', 40);
    const run = runAb([fast, twin, slow], { baseline: 'release', cellHours: 1e6, seed: 3, budgetMs: 0, minRounds: 5 });
    expect(run.units).toEqual({ release: 20, [`release${AA_SUFFIX}`]: 20, scalar: 1 });
    expect(run.rounds).toBe(3);
    for (const name of ['release', 'scalar']) expect(run.rates[name]).toHaveLength(3);
    expect(run.warmup.scalar).toBeGreaterThanOrEqual(2);
    expect(run.rates.release![0]).toBeCloseTo(500, -1);
    expect(run.rates.scalar![0]).toBeCloseTo(25, 0);
  });

  it('runs a multiple of its placements per round for a contender whose units take turns over compilations', () => {
    const fast = { ...fake('release', 2), placements: 3 };
    const twin = { ...fake('release' + AA_SUFFIX, 2), placements: 3 };
    const slow = { ...fake('scalar', 40), placements: 3 };
    const run = runAb([fast, twin, slow], { baseline: 'release', cellHours: 1e6, seed: 3, budgetMs: 0, minRounds: 5 });
    // 20 units fit the slow contender's turn: 21, the nearest multiple of 3; the slow one runs 3, one per placement.
    expect(run.units).toEqual({ release: 21, [`release${AA_SUFFIX}`]: 21, scalar: 3 });
  });

  it('reports a reference slower without calling it a regression', () => {
    const rates = {
      release: [100, 101, 99, 100, 102, 98],
      [`release${AA_SUFFIX}`]: [100, 100, 100, 101, 99, 100],
      scalar: [10, 10, 11, 10, 9, 10],
      mine: [80, 81, 79, 80, 80, 82],
    };
    const a = analyse(rates, 'release', 1);
    expect(a.ratios.find((r) => r.variant === 'scalar')?.verdict).toBe('slower');
    expect(regressions(a).map((r) => r.variant)).toEqual(['scalar', 'mine']);
    expect(regressions(a, new Set(['scalar'])).map((r) => r.variant)).toEqual(['mine']);
    const rows = tableRows(a, rates, new Set(['scalar']));
    expect(rows.find((r) => r.variant === 'scalar')?.verdict).toBe('slower (reference)');
    expect(rows.find((r) => r.variant === 'mine')?.verdict).toBe('slower');
  });
});
