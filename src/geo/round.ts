/**
 * Coordinate rounding shared by every layer: the spec rounds `lat` and `lon` to 5 decimals (about 1 m) before any
 * lookup, so caches, coverage and sampling all see the same position.
 */

/** Decimal places kept on request coordinates (spec: "rounded to 5 decimals"). */
const COORD_DECIMALS = 5;

const SCALE = 10 ** COORD_DECIMALS;

/**
 * Rounds a coordinate to 5 decimals, half away from zero, so `-4.352505` and `4.352505` round symmetrically.
 *
 * The scaled value is first cut to 15 significant digits: `4.352505 * 1e5` is `435250.49999999994` in binary floating
 * point, and the decimal the caller wrote (…5) must round up. Division by the exact power of ten then yields the double
 * nearest to the 5-decimal number, the same double as parsing its decimal text. Never returns `-0`. Non-finite input is
 * returned unchanged (validation is the caller's job).
 */
export function roundCoord(v: number): number {
  if (!Number.isFinite(v)) return v;
  const magnitude = Math.abs(v);
  const scaled = Number((magnitude * SCALE).toPrecision(15));
  const rounded = Math.round(scaled) / SCALE;
  if (rounded === 0) return 0;
  return v < 0 ? -rounded : rounded;
}
