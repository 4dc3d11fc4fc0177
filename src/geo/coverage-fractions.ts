/**
 * Exact coverage fractions of grid cells by a polygon (as exactextract computes them): for every cell the polygon
 * touches, area(cell ∩ polygon) / area(cell), in floating point, for any simple polygon (concave, with holes) and any
 * set of disjoint polygons.
 *
 * Method, one cell row at a time: each ring is clipped to the row's horizontal strip (Sutherland–Hodgman against the
 * two half-planes of the strip: a convex window, where the method is exact for any ring); the area of the clipped ring
 * inside each column is then the sum, over its edges, of the trapezoid each edge's part in that column spans down to
 * the strip's top (vertical pieces along the column edges add nothing, so no second clip is needed). Exterior rings
 * count positively and holes negatively whatever their orientation. Work per row is the ring's vertices plus the
 * columns its edges span: proportional to the polygon's size in cells, not its bounding box.
 *
 * Coordinates are in cell units (column, row) from the grid's north-west corner, rows growing southwards; see
 * `toCellUnits`. "Centre inside" uses the strict even-odd rule of polygon.ts: a centre exactly on an edge is outside.
 */
import type { MultiPolygonRings, Ring } from './polygon.js';

/** A north-up grid by its edges: the north-west corner, the cell size and the cell counts. */
export interface CellFrame {
  /** x of the western edge of column 0, y of the northern edge of row 0, in the CRS's units. */
  readonly west: number;
  readonly north: number;
  readonly res: number;
  readonly nx: number;
  readonly ny: number;
}

/** The cells a polygon touches, in row-major order. */
export interface CellCoverage {
  /** Flat cell index (row × nx + col). */
  readonly cells: Int32Array;
  /** Covered share of each cell, 0 < f ≤ 1. */
  readonly fractions: Float64Array;
  /** 1 where the cell's centre lies strictly inside the polygon. */
  readonly centreInside: Uint8Array;
  /** Sum of the fractions whose raw value exceeded 1 by more than rounding (parts overlap), in cells; 0 when valid. */
  readonly overlap: number;
  /** Sum of negative raw fractions (a hole outside its exterior), in cells; 0 when valid. */
  readonly uncovered: number;
}

/** Tolerance of a fraction, in cells: differences below it are rounding, not geometry. */
const EPSILON = 1e-9;

/** One ring in cell units as flat [u0, w0, u1, w1, …] without the closing position. */
type FlatRing = Float64Array;

/** Converts a ring in CRS units to cell units of `frame` (u east in columns, w south in rows), closing position dropped. */
function toCellUnits(ring: Ring, frame: CellFrame): FlatRing {
  const n = ring.length > 1 && ring[0][0] === ring[ring.length - 1][0] && ring[0][1] === ring[ring.length - 1][1] ? ring.length - 1 : ring.length;
  const out = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    out[2 * i] = (ring[i][0] - frame.west) / frame.res;
    out[2 * i + 1] = (frame.north - ring[i][1]) / frame.res;
  }
  return out;
}

/** Σ du · w̄ over the ring: positive for the orientation this module counts as covering. */
function orientation(ring: FlatRing): number {
  let sum = 0;
  const n = ring.length / 2;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    sum += (ring[2 * j] - ring[2 * i]) * (ring[2 * i + 1] + ring[2 * j + 1]);
  }
  return sum / 2;
}

function reversed(ring: FlatRing): FlatRing {
  const n = ring.length / 2;
  const out = new Float64Array(ring.length);
  for (let i = 0; i < n; i++) {
    out[2 * i] = ring[2 * (n - 1 - i)];
    out[2 * i + 1] = ring[2 * (n - 1 - i) + 1];
  }
  return out;
}

/** A ring prepared for clipping: oriented (exterior positive, hole negative), with its row span. */
interface PreparedRing {
  readonly ring: FlatRing;
  readonly wMin: number;
  readonly wMax: number;
}

function prepare(ring: FlatRing, exterior: boolean): PreparedRing {
  const o = orientation(ring);
  const oriented = (o < 0) === exterior ? reversed(ring) : ring;
  let wMin = Infinity;
  let wMax = -Infinity;
  for (let i = 1; i < ring.length; i += 2) {
    wMin = Math.min(wMin, ring[i]);
    wMax = Math.max(wMax, ring[i]);
  }
  return { ring: oriented, wMin, wMax };
}

/** Clips a ring to w ≥ lo (keep = 1) or w ≤ hi (keep = -1): one Sutherland–Hodgman pass, into `out`; returns its length. */
function clipHalf(src: ArrayLike<number>, n: number, bound: number, keep: 1 | -1, out: Float64Array): number {
  let m = 0;
  if (n === 0) return 0;
  let pu = src[2 * (n - 1)];
  let pw = src[2 * (n - 1) + 1];
  let pIn = keep * (pw - bound) >= 0;
  for (let i = 0; i < n; i++) {
    const cu = src[2 * i];
    const cw = src[2 * i + 1];
    const cIn = keep * (cw - bound) >= 0;
    if (cIn !== pIn) {
      const t = (bound - pw) / (cw - pw);
      out[m++] = pu + t * (cu - pu);
      out[m++] = bound;
    }
    if (cIn) {
      out[m++] = cu;
      out[m++] = cw;
    }
    pu = cu;
    pw = cw;
    pIn = cIn;
  }
  return m / 2;
}

/**
 * Adds each column's share of one clipped ring's area in strip [top, top + 1] to `acc` (index col − c0), in cells:
 * the part of edge a→b over column c adds du · (w̄ − top), positive for exterior rings, negative for holes.
 */
function addStripAreas(ring: Float64Array, n: number, top: number, c0: number, nx: number, acc: Float64Array, touched: Uint8Array): void {
  for (let i = 0; i < n; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    const ua = ring[2 * i];
    const wa = ring[2 * i + 1] - top;
    const ub = ring[2 * j];
    const wb = ring[2 * j + 1] - top;
    if (ua === ub) continue;
    const lo = Math.min(ua, ub);
    const hi = Math.max(ua, ub);
    const sign = ub > ua ? 1 : -1;
    const slope = (wb - wa) / (ub - ua);
    const first = Math.max(0, Math.floor(lo));
    const last = Math.min(nx - 1, Math.ceil(hi) - 1);
    for (let c = first; c <= last; c++) {
      const s = Math.max(lo, c);
      const e = Math.min(hi, c + 1);
      if (e <= s) continue;
      const ws = wa + (s - ua) * slope;
      const we = wa + (e - ua) * slope;
      // The trapezoid between the edge piece and the strip's top line (pieces of one column close up with vertical
      // pieces, which span no width, so the sum over a column is the area of the ring inside it).
      acc[c - c0] += sign * (e - s) * ((ws + we) / 2);
      touched[c - c0] = 1;
    }
  }
}

/** Even-odd parity of centre (u, row + ½) against one clipped ring, edges crossing the centre line half-open. */
function centreCrossings(ring: Float64Array, n: number, mid: number, out: number[]): void {
  for (let i = 0; i < n; i++) {
    const j = i + 1 === n ? 0 : i + 1;
    const wa = ring[2 * i + 1];
    const wb = ring[2 * j + 1];
    if ((wa > mid) === (wb > mid)) continue;
    const ua = ring[2 * i];
    const ub = ring[2 * j];
    out.push(ua + ((mid - wa) / (wb - wa)) * (ub - ua));
  }
}

/** Whether (u, mid) lies on an edge of the clipped ring (then it is not strictly inside). */
function onAnyEdge(rings: readonly { ring: Float64Array; n: number }[], u: number, mid: number): boolean {
  for (const { ring, n } of rings) {
    for (let i = 0; i < n; i++) {
      const j = i + 1 === n ? 0 : i + 1;
      const ua = ring[2 * i], wa = ring[2 * i + 1], ub = ring[2 * j], wb = ring[2 * j + 1];
      if (u < Math.min(ua, ub) || u > Math.max(ua, ub) || mid < Math.min(wa, wb) || mid > Math.max(wa, wb)) continue;
      if ((ub - ua) * (mid - wa) - (wb - wa) * (u - ua) === 0) return true;
    }
  }
  return false;
}

/**
 * Coverage fractions of the cells of `frame` by `polygons` (CRS units, each an exterior ring then holes; parts
 * disjoint). Cells outside the frame are not reported. Invalid input shows in `overlap` and `uncovered`.
 */
export function coverageFractions(polygons: MultiPolygonRings, frame: CellFrame): CellCoverage {
  const rings: PreparedRing[] = [];
  for (const polygon of polygons) polygon.forEach((ring, k) => rings.push(prepare(toCellUnits(ring, frame), k === 0)));
  let uMin = Infinity;
  let uMax = -Infinity;
  let wMin = Infinity;
  let wMax = -Infinity;
  let longest = 0;
  for (const r of rings) {
    for (let i = 0; i < r.ring.length; i += 2) {
      uMin = Math.min(uMin, r.ring[i]);
      uMax = Math.max(uMax, r.ring[i]);
    }
    wMin = Math.min(wMin, r.wMin);
    wMax = Math.max(wMax, r.wMax);
    longest = Math.max(longest, r.ring.length / 2);
  }
  const c0 = Math.max(0, Math.floor(uMin));
  const c1 = Math.min(frame.nx - 1, Math.ceil(uMax) - 1);
  const r0 = Math.max(0, Math.floor(wMin));
  const r1 = Math.min(frame.ny - 1, Math.ceil(wMax) - 1);
  const cells: number[] = [];
  const fractions: number[] = [];
  const inside: number[] = [];
  let overlap = 0;
  let uncovered = 0;
  if (c1 < c0 || r1 < r0) return { cells: new Int32Array(0), fractions: new Float64Array(0), centreInside: new Uint8Array(0), overlap, uncovered };

  const width = c1 - c0 + 1;
  const acc = new Float64Array(width);
  const touched = new Uint8Array(width);
  // One Sutherland–Hodgman pass outputs at most two positions per input edge.
  const half = new Float64Array(2 * (2 * longest + 4));
  const clipped: { ring: Float64Array; n: number }[] = rings.map((r) => ({ ring: new Float64Array(2 * (4 * (r.ring.length / 2) + 8)), n: 0 }));
  const crossings: number[] = [];
  for (let row = r0; row <= r1; row++) {
    acc.fill(0);
    touched.fill(0);
    crossings.length = 0;
    rings.forEach((r, k) => {
      const slot = clipped[k]!;
      slot.n = 0;
      if (r.wMax <= row || r.wMin >= row + 1) return;
      const m = clipHalf(r.ring, r.ring.length / 2, row, 1, half);
      slot.n = clipHalf(half, m, row + 1, -1, slot.ring);
      addStripAreas(slot.ring, slot.n, row, c0, frame.nx, acc, touched);
      centreCrossings(slot.ring, slot.n, row + 0.5, crossings);
    });
    crossings.sort((a, b) => a - b);
    let passed = 0;
    for (let i = 0; i < width; i++) {
      if (touched[i] === 0) continue;
      const raw = acc[i]!;
      if (raw > 1 + EPSILON) overlap += raw - 1;
      if (raw < -EPSILON) uncovered -= raw;
      if (!(raw > EPSILON)) continue;
      const u = c0 + i + 0.5;
      while (passed < crossings.length && crossings[passed]! < u) passed++;
      const onCrossing = passed < crossings.length && crossings[passed] === u;
      // Crossings east of the centre decide (even-odd); a fully covered cell's centre cannot lie on an edge.
      const parityOdd = (crossings.length - passed) % 2 === 1;
      const strictlyInside = parityOdd && !onCrossing && (raw >= 1 - EPSILON || !onAnyEdge(clipped, u, row + 0.5));
      cells.push(row * frame.nx + c0 + i);
      fractions.push(Math.min(1, raw));
      inside.push(strictlyInside ? 1 : 0);
    }
  }
  return { cells: Int32Array.from(cells), fractions: Float64Array.from(fractions), centreInside: Uint8Array.from(inside), overlap, uncovered };
}
