/**
 * A multipolygon prepared for many strict point-in-polygon queries: a bounding-box prefilter, then a flatbush R-tree of
 * edges so a query visits only the edges that touch the ray it casts, instead of every vertex of, say, Belgium's
 * boundary. Answers are identical to `pointInMultiPolygon` (same edge tests, see polygon.ts), which a test checks.
 */
import Flatbush from 'flatbush';
import { bboxContains, crossesRay, multiPolygonBBox, onSegment } from './polygon.js';
import type { BBox, MultiPolygonRings } from './polygon.js';

/** Strict point-in-multipolygon with a precomputed bbox and an edge index; its answers never change once built. */
export class IndexedPolygon {
  /** Bounding box of all rings. */
  readonly bbox: BBox;
  /** Number of indexed edges. */
  readonly edgeCount: number;
  private readonly index: Flatbush;
  /** Edge i runs from (edges[4i], edges[4i+1]) to (edges[4i+2], edges[4i+3]). */
  private readonly edges: Float64Array;
  /** Member polygon each edge belongs to. */
  private readonly owner: Uint32Array;
  private readonly polygonCount: number;
  /** Per-polygon scratch of one query: ray-crossing parity and "on an edge"; queries are synchronous, one set serves. */
  private readonly parity: Uint8Array;
  private readonly onEdge: Uint8Array;

  /** Indexes every edge; throws `RangeError` for a multipolygon without positions (it has no bounding box). */
  constructor(polygons: MultiPolygonRings) {
    this.bbox = multiPolygonBBox(polygons);
    this.polygonCount = polygons.length;
    const count = polygons.reduce((sum, rings) => sum + rings.reduce((s, ring) => s + ring.length, 0), 0);
    this.edgeCount = count;
    this.edges = new Float64Array(count * 4);
    this.owner = new Uint32Array(count);
    this.index = new Flatbush(count);
    let e = 0;
    polygons.forEach((rings, p) => {
      for (const ring of rings) {
        // Each position starts one edge; the edge from the last position back to the first closes the ring
        // (zero length when the ring is already closed, which is harmless).
        for (let i = 0; i < ring.length; i++) {
          const [ax, ay] = ring[i === 0 ? ring.length - 1 : i - 1];
          const [bx, by] = ring[i];
          this.edges.set([ax, ay, bx, by], e * 4);
          this.owner[e] = p;
          this.index.add(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by));
          e++;
        }
      }
    });
    this.index.finish();
    this.parity = new Uint8Array(this.polygonCount);
    this.onEdge = new Uint8Array(this.polygonCount);
  }

  /** Strict test: true when (x, y) is in the interior of a member polygon; boundary points are outside. */
  contains(x: number, y: number): boolean {
    if (!bboxContains(this.bbox, x, y)) return false;
    const { edges, owner, parity, onEdge } = this;
    parity.fill(0);
    onEdge.fill(0);
    // A ray towards +x from (x, y): only edges whose box touches the segment (x, y)–(maxX, y) can cross it or hold it.
    // The filter does the work and keeps nothing, so a query allocates no result list.
    this.index.search(x, y, this.bbox[2], y, (i) => {
      const ax = edges[4 * i];
      const ay = edges[4 * i + 1];
      const bx = edges[4 * i + 2];
      const by = edges[4 * i + 3];
      const p = owner[i];
      if (onSegment(x, y, ax, ay, bx, by)) onEdge[p] = 1;
      else if (crossesRay(x, y, ax, ay, bx, by)) parity[p] ^= 1;
      return false;
    });
    for (let p = 0; p < this.polygonCount; p++) {
      if (parity[p] === 1 && onEdge[p] === 0) return true;
    }
    return false;
  }
}
