/**
 * Validity of a polygon's rings as simple-feature rules ask: no edge of a ring crosses or touches another edge of the
 * polygon, except two consecutive edges of one ring at their shared position. Found by a sweep over the edges sorted
 * by their west end, so typical polygons cost O(n log n); the worst case (every edge spanning the whole width) is
 * O(n²), which the callers bound by limiting the positions of a request before calling.
 */
import type { PolygonRings, Position } from './polygon.js';

/** Where two edges of a polygon meet: ring and edge indices (0-based; edge i runs from position i to i + 1). */
export interface EdgeContact {
  readonly ringA: number;
  readonly edgeA: number;
  readonly ringB: number;
  readonly edgeB: number;
  /** A position where they meet. */
  readonly at: Position;
}

interface Edge {
  readonly ring: number;
  readonly index: number;
  readonly ax: number;
  readonly ay: number;
  readonly bx: number;
  readonly by: number;
  readonly minX: number;
  readonly maxX: number;
  readonly minY: number;
  readonly maxY: number;
  /** Edges in the ring (to tell the wrap-around neighbour). */
  readonly ringEdges: number;
}

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

function within(e: Edge, x: number, y: number): boolean {
  return x >= e.minX && x <= e.maxX && y >= e.minY && y <= e.maxY;
}

/** A position where segments e and f meet, or undefined when they do not. */
function contact(e: Edge, f: Edge): Position | undefined {
  const o1 = orient(e.ax, e.ay, e.bx, e.by, f.ax, f.ay);
  const o2 = orient(e.ax, e.ay, e.bx, e.by, f.bx, f.by);
  const o3 = orient(f.ax, f.ay, f.bx, f.by, e.ax, e.ay);
  const o4 = orient(f.ax, f.ay, f.bx, f.by, e.bx, e.by);
  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) {
    const t = o3 / (o3 - o4);
    return [e.ax + t * (e.bx - e.ax), e.ay + t * (e.by - e.ay)];
  }
  if (o1 === 0 && within(e, f.ax, f.ay)) return [f.ax, f.ay];
  if (o2 === 0 && within(e, f.bx, f.by)) return [f.bx, f.by];
  if (o3 === 0 && within(f, e.ax, e.ay)) return [e.ax, e.ay];
  if (o4 === 0 && within(f, e.bx, e.by)) return [e.bx, e.by];
  return undefined;
}

/** Consecutive edges of one ring meet only at their shared position, unless they fold back over each other. */
function allowedNeighbours(e: Edge, f: Edge): boolean {
  if (e.ring !== f.ring) return false;
  const d = Math.abs(e.index - f.index);
  if (d !== 1 && d !== e.ringEdges - 1) return false;
  const [first, second] = (f.index === e.index + 1 || (e.index === e.ringEdges - 1 && f.index === 0)) ? [e, f] : [f, e];
  // They share first.b = second.a; a fold-back (spike) makes them collinear and overlapping.
  const o = orient(first.ax, first.ay, first.bx, first.by, second.bx, second.by);
  if (o !== 0) return true;
  const dot = (first.bx - first.ax) * (second.bx - second.ax) + (first.by - first.ay) * (second.by - second.ay);
  return dot > 0;
}

/** The first contact found between edges of `rings` that simple-feature rules forbid; undefined for a valid polygon. */
export function findEdgeContact(rings: PolygonRings): EdgeContact | undefined {
  const edges: Edge[] = [];
  rings.forEach((ring, r) => {
    const n = ring.length - 1;
    for (let i = 0; i < n; i++) {
      const [ax, ay] = ring[i]!;
      const [bx, by] = ring[i + 1]!;
      edges.push({
        ring: r, index: i, ax, ay, bx, by, ringEdges: n,
        minX: Math.min(ax, bx), maxX: Math.max(ax, bx), minY: Math.min(ay, by), maxY: Math.max(ay, by),
      });
    }
  });
  edges.sort((p, q) => p.minX - q.minX);
  let active: Edge[] = [];
  for (const e of edges) {
    if (active.length > 64) active = active.filter((a) => a.maxX >= e.minX);
    for (const a of active) {
      if (a.maxX < e.minX || a.maxY < e.minY || a.minY > e.maxY) continue;
      if (allowedNeighbours(a, e)) continue;
      const at = contact(a, e);
      if (at !== undefined) {
        const [p, q] = a.ring < e.ring || (a.ring === e.ring && a.index < e.index) ? [a, e] : [e, a];
        return { ringA: p.ring, edgeA: p.index, ringB: q.ring, edgeB: q.index, at };
      }
    }
    active.push(e);
  }
  return undefined;
}
