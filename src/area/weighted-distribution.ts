/**
 * Coverage-weighted summaries of per-cell values: each cell weighs the area of it the polygon covers (m²), so a cell
 * half inside counts half, and a polygon smaller than a cell is answered from the cells it touches, weighted.
 *
 * Weighted percentile p: the smallest value v such that the cells with values ≤ v hold at least p of the weight (the
 * inverse of the weighted distribution function, no interpolation: every percentile is a value some cell holds).
 */
import { roundHalfUp } from '../stats/numeric.js';
import type { AreaClass } from './area-figures.js';

/** The distribution of a value over an area. */
export interface WeightedSummary {
  /** Area with a value, m². */
  readonly area_m2: number;
  readonly mean?: number;
  readonly min: number;
  readonly max: number;
  readonly p10: number;
  readonly p50: number;
  readonly p90: number;
}

/** One class's area. */
export interface ClassArea {
  readonly value: number;
  readonly name: string;
  readonly area_m2: number;
  /** Share of the area with a class, %. */
  readonly share_pct: number;
}

/** Area per class. */
export interface ClassSummary {
  /** Area with a class, m². */
  readonly area_m2: number;
  readonly classes: readonly ClassArea[];
}

/** Rounds an area to 0.01 m². */
export const roundArea = (m2: number): number => roundHalfUp(m2, 2);

/**
 * The weighted summary of `values` (NaN: no value, left out) with `weights`; undefined when no cell has a value.
 * `withMean` adds the weighted mean. Published values keep `decimals`.
 */
export function weightedSummary(values: ArrayLike<number>, weights: ArrayLike<number>, withMean: boolean, decimals: number): WeightedSummary | undefined {
  const order: number[] = [];
  let total = 0;
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v) || !(weights[i]! > 0)) continue;
    order.push(i);
    total += weights[i]!;
    sum += weights[i]! * v;
  }
  if (order.length === 0) return undefined;
  order.sort((a, b) => values[a]! - values[b]!);
  const quantile = (p: number): number => {
    let acc = 0;
    for (const i of order) {
      acc += weights[i]!;
      if (acc >= p * total - 1e-9 * total) return values[i]!;
    }
    return values[order[order.length - 1]!]!;
  };
  const r = (x: number) => roundHalfUp(x, decimals);
  return {
    area_m2: roundArea(total),
    ...(withMean ? { mean: r(sum / total) } : {}),
    min: r(values[order[0]!]!), max: r(values[order[order.length - 1]!]!),
    p10: r(quantile(0.1)), p50: r(quantile(0.5)), p90: r(quantile(0.9)),
  };
}

/** Area per class of `codes` (0: no class, left out), weighted by `weights`; undefined when no cell has a class. */
export function classSummary(codes: ArrayLike<number>, weights: ArrayLike<number>, classes: readonly AreaClass[]): ClassSummary | undefined {
  const byValue = new Map(classes.map((c) => [c.value, 0]));
  let total = 0;
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i]!;
    if (!byValue.has(code) || !(weights[i]! > 0)) continue;
    byValue.set(code, byValue.get(code)! + weights[i]!);
    total += weights[i]!;
  }
  if (total === 0) return undefined;
  return {
    area_m2: roundArea(total),
    classes: classes.map((c) => ({
      value: c.value, name: c.name, area_m2: roundArea(byValue.get(c.value)!), share_pct: roundHalfUp((100 * byValue.get(c.value)!) / total, 1),
    })),
  };
}
