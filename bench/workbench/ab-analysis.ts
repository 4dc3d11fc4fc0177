/**
 * From raw per-round throughput samples to the workbench's findings, pure and seeded: per contender median, minimum
 * and MAD; per variant the paired ratio to the baseline with its bootstrap interval and verdict; the noise threshold
 * from the A/A twin unless one is given. `compare` of two saved runs uses the same code.
 */
import { bootstrapMedian, median, narrowEnough, pairedRatios, summarize, thresholdFromAA, verdict, type Interval, type Summary, type Verdict } from './statistics.js';

/** Suffix of the baseline's identical twin, timed like any variant to measure the A/A spread. */
export const AA_SUFFIX = ' (A/A)';

/** One variant against the baseline. */
export interface RatioFinding {
  readonly variant: string;
  readonly median: number;
  readonly interval: Interval;
  readonly verdict: Verdict;
  readonly resolved: boolean;
}

/** Findings of one run. */
export interface Analysis {
  readonly baseline: string;
  /** M cell-hours per CPU-second per contender. */
  readonly throughput: Readonly<Record<string, Summary>>;
  readonly ratios: readonly RatioFinding[];
  readonly threshold: number;
  readonly thresholdSource: 'given' | 'A/A';
  /** Whether every ratio interval is narrow enough against the threshold. */
  readonly narrow: boolean;
}

/**
 * Analyses per-round rates (`rates[name][round]`, paired by round) against `baseline`. The threshold is `given`, or
 * from the A/A twin's ratio interval when the twin was timed, else 2 %.
 */
export function analyse(rates: Readonly<Record<string, readonly number[]>>, baseline: string, seed: number, given?: number, resamples = 2000): Analysis {
  const base = rates[baseline];
  if (base === undefined) throw new RangeError(`no samples of the baseline ${baseline}`);
  const throughput = Object.fromEntries(Object.entries(rates).map(([n, v]) => [n, summarize(v)]));
  const intervals = Object.entries(rates)
    .filter(([n]) => n !== baseline)
    .map(([n, v]) => {
      const r = pairedRatios(v, base);
      return { variant: n, median: median(r), interval: bootstrapMedian(r, seed, resamples) };
    });
  const aa = intervals.find((i) => i.variant === baseline + AA_SUFFIX);
  const threshold = given ?? (aa ? thresholdFromAA(aa.interval) : 0.02);
  const ratios = intervals.map((i) => ({ ...i, ...verdict(i.interval, threshold) }));
  return {
    baseline, throughput, ratios, threshold, thresholdSource: given === undefined ? 'A/A' : 'given',
    narrow: ratios.every((r) => narrowEnough(r.interval, threshold)),
  };
}

/**
 * Variants whose whole interval lies below 1 − threshold: a regression, exit 1. The A/A twin and the variants named in
 * `references` (declared `"reference": true`, e.g. `scalar`) are reported but never a regression.
 */
export function regressions(a: Analysis, references: ReadonlySet<string> = new Set()): RatioFinding[] {
  return a.ratios.filter((r) => r.verdict === 'slower' && !r.variant.endsWith(AA_SUFFIX) && !references.has(r.variant));
}
