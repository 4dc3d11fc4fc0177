/**
 * Which registered house number answers an asked one, never a different house silently: the asked number itself
 * (with its letter suffix: `16A` is not `16`); else, when the register does not hold it, a registered number of the
 * same street whose point lies within `NEAR_M` of where the asked number would be — between its registered neighbours
 * on the same side of the street (same parity), in proportion to the numbers — answered under its own number; else
 * nothing (the caller answers at street level).
 */

/** How far from the asked number's estimated place a registered number may lie to answer for it, metres. */
export const NEAR_M = 25;

/** A registered house number and its point. */
export interface NumberedPoint {
  /** As the index keeps it: `16`, `16A`. */
  readonly number: string;
  /** Its numeric part. */
  readonly num: number;
  readonly lat: number;
  readonly lon: number;
}

/** The answer: the registered number and whether it is the asked one. */
export interface NumberAnswer {
  readonly point: NumberedPoint;
  readonly exact: boolean;
}

const NUMBER = /^([0-9]+)([A-Z]*)$/;

/** Distance in metres between two points a few hundred metres apart (equirectangular). */
export function nearDistanceM(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const k = Math.PI / 180;
  const x = (b.lon - a.lon) * k * Math.cos(((a.lat + b.lat) / 2) * k);
  const y = (b.lat - a.lat) * k;
  return Math.hypot(x, y) * 6_371_008.8;
}

/**
 * The registered number answering `asked` (canonical: digits and upper-case letters) among `registered` (the street's
 * numbers, any order); undefined when none may.
 */
export function answerNumber(asked: string, registered: readonly NumberedPoint[]): NumberAnswer | undefined {
  const exact = registered.find((p) => p.number === asked);
  if (exact !== undefined) return { point: exact, exact: true };
  const m = NUMBER.exec(asked);
  if (m === null) return undefined;
  // A suffixed number sits just after its plain one ("16B" between 16 and 18).
  const n = Number(m[1]) + (m[2] === '' ? 0 : 0.5);
  const side = registered.filter((p) => p.num % 2 === Number(m[1]) % 2);
  let lower: NumberedPoint | undefined;
  let upper: NumberedPoint | undefined;
  for (const p of side) {
    const at = p.num + (p.number.length > String(p.num).length ? 0.5 : 0);
    if (at < n && (lower === undefined || p.num > lower.num)) lower = p;
    if (at > n && (upper === undefined || p.num < upper.num)) upper = p;
  }
  if (lower === undefined || upper === undefined || upper.num === lower.num) return undefined;
  const t = (n - lower.num) / (upper.num - lower.num);
  const estimate = { lat: lower.lat + t * (upper.lat - lower.lat), lon: lower.lon + t * (upper.lon - lower.lon) };
  let best: { point: NumberedPoint; d: number } | undefined;
  for (const p of registered) {
    const d = nearDistanceM(p, estimate);
    if (best === undefined || d < best.d) best = { point: p, d };
  }
  return best !== undefined && best.d <= NEAR_M ? { point: best.point, exact: false } : undefined;
}
