/**
 * Interleaved A/B rounds in one process: every contender runs once per round on the same inputs, in an order drawn
 * anew each round from a seeded stream, so load from other processes falls on all alike and each round yields paired
 * samples. Each contender first warms up alone, bounded by a share of the budget, until its time per unit settles;
 * that time sets how many units it runs per round, so every contender's turn takes about as long as the slowest one's
 * single unit and a slow reference (scalar) does not eat the budget. Measured rounds continue until every ratio
 * interval is narrow enough against the threshold, or the wall-clock budget ends.
 */
import { performance } from 'node:perf_hooks';
import { createRandom } from '../../src/util/random.js';
import { analyse, type Analysis } from './ab-analysis.js';
import { median, shuffled } from './statistics.js';

/**
 * A timed contender: `round()` runs one unit of work (`cellHours` of the settings) and returns its CPU milliseconds.
 * A contender whose units take turns over `placements` compilations of its module (bench/kernels.ts) runs a multiple
 * of that many units per round, so every round weighs each compilation alike.
 */
export interface Contender {
  readonly name: string;
  readonly round: () => number;
  readonly placements?: number;
}

/** Settings of a run. */
export interface AbSettings {
  readonly baseline: string;
  /** Cell-hours of one unit of work. */
  readonly cellHours: number;
  readonly seed: number;
  readonly budgetMs: number;
  readonly threshold?: number | undefined;
  readonly minRounds?: number;
  /** Most warm-up units per contender (default 15). */
  readonly maxWarmup?: number;
  /** Share of the budget all warm-ups together may take (default 0.15). */
  readonly warmupShare?: number;
  /** Called after each measured round (progress). */
  readonly onRound?: (round: number, elapsedMs: number) => void;
}

/** Raw outcome of a run. */
export interface AbRun {
  /** M cell-hours per CPU-second, per contender, per measured round. */
  readonly rates: Record<string, number[]>;
  /** M cell-hours per wall-clock second (the untimed copies into kernel memory included), per contender and round. */
  readonly wallRates: Record<string, number[]>;
  /** Warm-up units per contender. */
  readonly warmup: Record<string, number>;
  /** Units per round per contender. */
  readonly units: Record<string, number>;
  readonly rounds: number;
  readonly stoppedBy: 'narrow' | 'budget';
  readonly elapsedMs: number;
  readonly analysis: Analysis;
}

/** Times settled: the median of the last three within 2 % of the median of the three before. */
const settled = (v: readonly number[]): boolean =>
  v.length >= 6 && Math.abs(median(v.slice(-3)) / median(v.slice(-6, -3)) - 1) < 0.02;

/** Most units a contender runs per round. */
const MAX_UNITS = 64;

/** Warms `c` up alone: until its unit time settles, `max` units, or `capMs` of wall clock (two units at least). */
function warmUp(c: Contender, max: number, capMs: number): number[] {
  const t0 = performance.now();
  const times: number[] = [];
  while (times.length < max && !settled(times) && (times.length < 2 || performance.now() - t0 < capMs)) {
    times.push(Math.max(c.round(), 1e-3));
  }
  return times;
}

/** Runs the rounds. */
export function runAb(contenders: readonly Contender[], s: AbSettings): AbRun {
  const rng = createRandom(s.seed);
  const start = performance.now();
  const capMs = (s.budgetMs * (s.warmupShare ?? 0.15)) / contenders.length;
  const warmup: Record<string, number> = {};
  const unitMs: Record<string, number> = {};
  for (const c of shuffled(contenders, () => rng.next())) {
    const times = warmUp(c, s.maxWarmup ?? 15, capMs);
    warmup[c.name] = times.length;
    unitMs[c.name] = median(times.slice(-3));
  }
  const turnMs = Math.max(...Object.values(unitMs));
  const units = Object.fromEntries(contenders.map((c) => {
    const p = c.placements ?? 1;
    return [c.name, p * Math.max(1, Math.round(Math.min(MAX_UNITS, Math.max(1, Math.round(turnMs / unitMs[c.name]!))) / p))];
  }));
  const rates: Record<string, number[]> = Object.fromEntries(contenders.map((c) => [c.name, []]));
  const wallRates: Record<string, number[]> = Object.fromEntries(contenders.map((c) => [c.name, []]));
  const minRounds = s.minRounds ?? 12;
  let rounds = 0;
  let stoppedBy: AbRun['stoppedBy'] = 'budget';
  for (;;) {
    for (const c of shuffled(contenders, () => rng.next())) {
      const n = units[c.name]!;
      const w0 = performance.now();
      let cpu = 0;
      for (let i = 0; i < n; i++) cpu += c.round();
      const mcellHours = (n * s.cellHours) / 1e6;
      rates[c.name]!.push(mcellHours / (Math.max(cpu, 1e-3) / 1e3));
      wallRates[c.name]!.push(mcellHours / (Math.max(performance.now() - w0, 1e-3) / 1e3));
    }
    rounds++;
    const elapsed = performance.now() - start;
    s.onRound?.(rounds, elapsed);
    if (rounds >= minRounds && rounds % 4 === 0 && analyse(rates, s.baseline, s.seed, s.threshold, 500).narrow) {
      stoppedBy = 'narrow';
      break;
    }
    if (elapsed >= s.budgetMs && rounds >= 3) break;
  }
  return {
    rates, wallRates, warmup, units, rounds, stoppedBy, elapsedMs: performance.now() - start,
    analysis: analyse(rates, s.baseline, s.seed, s.threshold),
  };
}
