/**
 * Interleaved A/B rounds in one process: every contender runs once per round on the same inputs, in an order drawn
 * anew each round from a seeded stream, so load from other processes falls on all alike and each round yields paired
 * samples. Warm-up rounds run until every contender's rate settles; measured rounds continue until every ratio
 * interval is narrow enough against the threshold, or the wall-clock budget ends.
 */
import { performance } from 'node:perf_hooks';
import { createRandom } from '../../src/util/random.js';
import { analyse, type Analysis } from './ab-analysis.js';
import { median, shuffled } from './statistics.js';

/** A timed contender: `round()` returns the CPU milliseconds of one round. */
export interface Contender {
  readonly name: string;
  readonly round: () => number;
}

/** Settings of a run. */
export interface AbSettings {
  readonly baseline: string;
  readonly cellHours: number;
  readonly seed: number;
  readonly budgetMs: number;
  readonly threshold?: number;
  readonly minRounds?: number;
  readonly maxWarmup?: number;
  /** Called after each measured round (progress). */
  readonly onRound?: (round: number, elapsedMs: number) => void;
}

/** Raw outcome of a run. */
export interface AbRun {
  /** M cell-hours per CPU-second, per contender, per measured round. */
  readonly rates: Record<string, number[]>;
  readonly warmupRounds: number;
  readonly rounds: number;
  readonly stoppedBy: 'narrow' | 'budget';
  readonly elapsedMs: number;
  readonly analysis: Analysis;
}

/** Rate settled: the median of the last three warm-up rates within 2 % of the three before. */
const settled = (v: readonly number[]): boolean =>
  v.length >= 6 && Math.abs(median(v.slice(-3)) / median(v.slice(-6, -3)) - 1) < 0.02;

/** Runs the rounds. */
export function runAb(contenders: readonly Contender[], s: AbSettings): AbRun {
  const rng = createRandom(s.seed);
  const rate = (c: Contender): number => s.cellHours / 1e6 / (Math.max(c.round(), 1e-3) / 1e3);
  const start = performance.now();
  const warm: Record<string, number[]> = Object.fromEntries(contenders.map((c) => [c.name, []]));
  let warmupRounds = 0;
  const maxWarmup = s.maxWarmup ?? 15;
  while (warmupRounds < maxWarmup && !contenders.every((c) => settled(warm[c.name]!))) {
    for (const c of shuffled(contenders, () => rng.next())) warm[c.name]!.push(rate(c));
    warmupRounds++;
  }
  const rates: Record<string, number[]> = Object.fromEntries(contenders.map((c) => [c.name, []]));
  const minRounds = s.minRounds ?? 12;
  let rounds = 0;
  let stoppedBy: AbRun['stoppedBy'] = 'budget';
  for (;;) {
    for (const c of shuffled(contenders, () => rng.next())) rates[c.name]!.push(rate(c));
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
    rates, warmupRounds, rounds, stoppedBy, elapsedMs: performance.now() - start,
    analysis: analyse(rates, s.baseline, s.seed, s.threshold),
  };
}
