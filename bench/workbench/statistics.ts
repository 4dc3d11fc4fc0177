/**
 * The workbench's statistics, pure and seeded: robust summaries of throughput samples (median, minimum, MAD), a
 * percentile bootstrap interval for the median of paired ratios, and the verdict a ratio interval supports against a
 * noise threshold. No timing here, so every figure is reproducible from the samples saved with a run.
 */
import { createRandom } from '../../src/util/random.js';

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of an empty list');
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Median absolute deviation from the median (unscaled). */
export function mad(values: readonly number[]): number {
  const m = median(values);
  return median(values.map((v) => Math.abs(v - m)));
}

/** Median, minimum, maximum and MAD of a non-empty sample. */
export interface Summary {
  readonly n: number;
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly mad: number;
}

/** Summarises a non-empty sample. */
export function summarize(values: readonly number[]): Summary {
  return { n: values.length, median: median(values), min: Math.min(...values), max: Math.max(...values), mad: mad(values) };
}

/** A two-sided interval at `level` (0.95 for 95 %). */
export interface Interval {
  readonly low: number;
  readonly high: number;
  readonly level: number;
}

/**
 * Percentile bootstrap interval of the median of `values`: `resamples` resamples with replacement drawn from a stream
 * seeded with `seed`, so the same samples and seed always give the same interval.
 */
export function bootstrapMedian(values: readonly number[], seed: number, resamples = 2000, level = 0.95): Interval {
  if (values.length === 0) throw new RangeError('bootstrap of an empty list');
  const rng = createRandom(seed);
  const n = values.length;
  const medians = new Float64Array(resamples);
  const draw = new Float64Array(n);
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < n; i++) draw[i] = values[rng.int(n)]!;
    draw.sort();
    medians[b] = n % 2 ? draw[n >> 1]! : (draw[(n >> 1) - 1]! + draw[n >> 1]!) / 2;
  }
  medians.sort();
  const tail = (1 - level) / 2;
  const at = (p: number): number => medians[Math.min(resamples - 1, Math.max(0, Math.floor(p * resamples)))]!;
  return { low: at(tail), high: at(1 - tail), level };
}

/** What a ratio interval (variant over baseline throughput) says against a noise threshold. */
export type Verdict = 'faster' | 'slower' | 'no change';

/**
 * `faster` when the whole interval lies above 1 + threshold, `slower` when it lies wholly below 1 − threshold,
 * otherwise `no change` (within the noise, or not resolved: `resolved` tells the two apart).
 */
export function verdict(interval: Interval, threshold: number): { verdict: Verdict; resolved: boolean } {
  if (interval.low > 1 + threshold) return { verdict: 'faster', resolved: true };
  if (interval.high < 1 - threshold) return { verdict: 'slower', resolved: true };
  const inside = interval.low >= 1 - threshold && interval.high <= 1 + threshold;
  return { verdict: 'no change', resolved: inside };
}

/**
 * The noise threshold measured from an A/A pair (the baseline against an identical instance): how far its ratio
 * interval reaches from 1, never below `floor`.
 */
export function thresholdFromAA(aa: Interval, floor = 0.01): number {
  return Math.max(floor, 1 - aa.low, aa.high - 1);
}

/**
 * Whether a ratio interval is narrow enough to stop: its width at most the threshold, so it can lie wholly on one
 * side of the noise band or wholly inside it.
 */
export function narrowEnough(interval: Interval, threshold: number): boolean {
  return interval.high - interval.low <= threshold;
}

/** Fisher–Yates shuffle of a copy of `items`, driven by `next()` in [0, 1). */
export function shuffled<T>(items: readonly T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Per-round ratios of paired samples (`variant[i] / baseline[i]`). */
export function pairedRatios(variant: readonly number[], baseline: readonly number[]): number[] {
  if (variant.length !== baseline.length) throw new RangeError('paired samples differ in length');
  return variant.map((v, i) => v / baseline[i]!);
}
