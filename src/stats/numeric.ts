/**
 * Small numeric helpers shared by the statistics blocks: output rounding, shares, means, percentiles and
 * piecewise-linear ladders. Rounding happens only when a block is assembled (docs/statistics.md, "Rounding"); every
 * comparison before that uses full precision unless a definition says otherwise.
 */

/**
 * Rounds half away from zero to `decimals` places (decimal ROUND_HALF_UP: 0.25 → 0.3, −0.25 → −0.3), judged on the
 * shortest decimal form of `x`, so binary artefacts such as 1.005 (stored as 1.00499…) still round up.
 * Never returns −0.
 */
export function roundHalfUp(x: number, decimals: number): number {
  if (!Number.isFinite(x)) return x;
  const [mantissa, exponent] = Math.abs(x).toExponential().split('e');
  const shifted = Number(`${mantissa}e${Number(exponent) + decimals}`);
  const rounded = Math.round(shifted) / 10 ** decimals;
  return x < 0 && rounded !== 0 ? -rounded : rounded;
}

/** Rounds a nullable value; `null` stays `null`. */
export function roundOrNull(x: number | null, decimals: number): number | null {
  return x === null ? null : roundHalfUp(x, decimals);
}

/** Share of `count` in `total` as a percentage at full precision; `null` when `total` is 0 (nothing to share). */
export function sharePct(count: number, total: number): number | null {
  return total > 0 ? (count * 100) / total : null;
}

/** `sum / count` at full precision; `null` when `count` is 0. */
export function meanOrNull(sum: number, count: number): number | null {
  return count > 0 ? sum / count : null;
}

/**
 * Percentile `p` (0..1) of ascending-sorted values by linear interpolation between the closest ranks, the C = 1 variant
 * (R type 7, NumPy "linear", Excel PERCENTILE.INC): rank h = (n − 1)·p, value x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]).
 * `null` for an empty input.
 */
export function percentileSorted(sorted: Float64Array, p: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const rank = (n - 1) * p;
  const lo = Math.floor(rank);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo] + (rank - lo) * (sorted[hi] - sorted[lo]);
}

/** One anchor of a piecewise-linear ladder: input value `x` maps to score `y`. */
export type Anchor = readonly [x: number, y: number];

/**
 * Piecewise-linear interpolation through anchors sorted by ascending `x`, clamped: below the first anchor the first
 * score, above the last anchor the last score. Used for the WHO ladders and the thermal season anchors.
 */
export function interpolateAnchors(anchors: readonly Anchor[], x: number): number {
  const first = anchors[0];
  const last = anchors[anchors.length - 1];
  if (x <= first[0]) return first[1];
  if (x >= last[0]) return last[1];
  for (let i = 1; i < anchors.length; i++) {
    const [x1, y1] = anchors[i];
    if (x <= x1) {
      const [x0, y0] = anchors[i - 1];
      return y0 + ((x - x0) * (y1 - y0)) / (x1 - x0);
    }
  }
  return last[1];
}

/** Index of the first maximum of `values` ignoring `null`s (ties go to the earlier index); −1 when all are null. */
export function firstMaxIndex(values: readonly (number | null)[]): number {
  let best = -1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== null && (best < 0 || v > (values[best] as number))) best = i;
  }
  return best;
}

/** Index of the first minimum of `values` ignoring `null`s (ties go to the earlier index); −1 when all are null. */
export function firstMinIndex(values: readonly (number | null)[]): number {
  let best = -1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== null && (best < 0 || v < (values[best] as number))) best = i;
  }
  return best;
}
