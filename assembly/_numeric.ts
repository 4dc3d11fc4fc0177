// Small phase-B helpers of the statistics kernel. Each mirrors one function of src/stats/numeric.ts operation for
// operation (same IEEE double steps in the same order), so results are bit-identical to the reference before rounding.

/** Parameter `i` of the f64 block at `params`. */
@inline export function param(params: usize, i: i32): f64 {
  return load<f64>(params + (<usize>i << 3));
}

/** Writes result `i` of the f64 block at `out`. */
@inline export function put(out: usize, i: i32, v: f64): void {
  store<f64>(out + (<usize>i << 3), v);
}

/** Share of `count` in `total` in percent, NaN (null) when `total` is 0; mirrors `sharePct`. */
@inline export function sharePct(count: f64, total: f64): f64 {
  return total > 0 ? (count * 100) / total : NaN;
}

/** `sum / count`, NaN (null) when `count` is 0; mirrors `meanOrNull`. */
@inline export function meanOr(sum: f64, count: f64): f64 {
  return count > 0 ? sum / count : NaN;
}

/** Mean of `count` values from their raw int16 sum under a CF encoding; NaN when `count` is 0. */
@inline export function cfMean(rawSum: i64, count: i32, scale: f64, offset: f64): f64 {
  return count > 0 ? (scale * <f64>rawSum + offset * <f64>count) / <f64>count : NaN;
}

/** Physical sum of `count` values from their raw int16 sum under a CF encoding. */
@inline export function cfSum(rawSum: i64, count: i32, scale: f64, offset: f64): f64 {
  return scale * <f64>rawSum + offset * <f64>count;
}

/**
 * Piecewise-linear interpolation through the anchors at `p` (count, x0, y0, x1, y1, …; x ascending), clamped to the
 * first and last score; mirrors `interpolateAnchors`.
 */
export function interpolate(p: usize, x: f64): f64 {
  const n = <i32>load<f64>(p);
  const lastX = load<f64>(p + (<usize>(2 * n - 1) << 3));
  const lastY = load<f64>(p + (<usize>(2 * n) << 3));
  if (x <= load<f64>(p, 8)) return load<f64>(p, 16);
  if (x >= lastX) return lastY;
  for (let i = 1; i < n; i++) {
    const x1 = load<f64>(p + (<usize>(2 * i + 1) << 3));
    if (x <= x1) {
      const y1 = load<f64>(p + (<usize>(2 * i + 2) << 3));
      const x0 = load<f64>(p + (<usize>(2 * i - 1) << 3));
      const y0 = load<f64>(p + (<usize>(2 * i) << 3));
      return y0 + ((x - x0) * (y1 - y0)) / (x1 - x0);
    }
  }
  return lastY;
}
