/**
 * Planar polygon geometry on [x, y] positions (projected metres or [lon, lat] degrees alike).
 *
 * Point-in-polygon is STRICT: a point exactly on an edge or vertex of any ring is outside. The spec asks for a strict
 * test (`covered` is "strict point-in-polygon against the city boundary"); it also makes two polygons that share an
 * edge never both claim a point on it. Interior is decided by the even-odd rule over all rings of a polygon, so holes
 * work whatever their orientation. "Exactly on" means the cross product of the edge and the point, evaluated in
 * floating point, is zero while the point lies within the edge's extent.
 */

/** One position: [x, y] (or [lon, lat]). */
export type Position = readonly [number, number];

/** A linear ring; closed (first position repeated last) or not, both are accepted. */
export type Ring = readonly Position[];

/** A polygon: outer ring first, then holes. */
export type PolygonRings = readonly Ring[];

/** Several polygons, as in a GeoJSON MultiPolygon. */
export type MultiPolygonRings = readonly PolygonRings[];

/** [minX, minY, maxX, maxY]. */
export type BBox = readonly [number, number, number, number];

/** Where a point lies relative to a ring. */
export type RingSide = 'inside' | 'outside' | 'boundary';

/** True when (px, py) lies on the segment a–b, ends included. */
export function onSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): boolean {
  if (px < Math.min(ax, bx) || px > Math.max(ax, bx) || py < Math.min(ay, by) || py > Math.max(ay, by)) return false;
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax) === 0;
}

/**
 * True when the edge a–b toggles the parity of a ray cast from (px, py) towards +x. Half-open in y (an edge counts when
 * exactly one end lies above the ray), so a ray through a vertex is counted once. The expression is shared with the
 * indexed test (polygon-index.ts) so both give identical answers.
 */
export function crossesRay(px: number, py: number, ax: number, ay: number, bx: number, by: number): boolean {
  return ay > py !== by > py && px < ((bx - ax) * (py - ay)) / (by - ay) + ax;
}

/** Classifies (x, y) against one ring: inside, outside, or exactly on its boundary. */
export function classifyRing(x: number, y: number, ring: Ring): RingSide {
  const n = ring.length;
  if (n === 0) return 'outside';
  let inside = false;
  let [ax, ay] = ring[n - 1];
  for (let i = 0; i < n; i++) {
    const [bx, by] = ring[i];
    if (onSegment(x, y, ax, ay, bx, by)) return 'boundary';
    if (crossesRay(x, y, ax, ay, bx, by)) inside = !inside;
    ax = bx;
    ay = by;
  }
  return inside ? 'inside' : 'outside';
}

/** Strict point-in-ring: true only for points in the interior (boundary points are outside). */
export function pointInRing(x: number, y: number, ring: Ring): boolean {
  return classifyRing(x, y, ring) === 'inside';
}

/** Strict point-in-polygon with holes: even-odd over all rings; a point on any ring is outside. */
export function pointInPolygon(x: number, y: number, rings: PolygonRings): boolean {
  let inside = false;
  for (const ring of rings) {
    const side = classifyRing(x, y, ring);
    if (side === 'boundary') return false;
    if (side === 'inside') inside = !inside;
  }
  return inside;
}

/** Strict point-in-multipolygon: inside any member polygon. */
export function pointInMultiPolygon(x: number, y: number, polygons: MultiPolygonRings): boolean {
  return polygons.some((rings) => pointInPolygon(x, y, rings));
}

/** Bounding box of a set of positions; throws on an empty set, which has none. */
export function bboxOf(positions: Iterable<Position>): BBox {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of positions) {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  if (minX > maxX) throw new RangeError('The bounding box of no positions is undefined.');
  return [minX, minY, maxX, maxY];
}

/** Bounding box of every ring of every polygon. */
export function multiPolygonBBox(polygons: MultiPolygonRings): BBox {
  return bboxOf(polygons.flatMap((rings) => rings.flat()));
}

/** True when (x, y) lies in the box, edges included (a prefilter; the strict test follows). */
export function bboxContains(bbox: BBox, x: number, y: number): boolean {
  return x >= bbox[0] && x <= bbox[2] && y >= bbox[1] && y <= bbox[3];
}

/** Signed shoelace area: positive when the ring runs counter-clockwise in a y-up frame (GeoJSON exterior order). */
export function ringArea(ring: Ring): number {
  const n = ring.length;
  if (n < 3) return 0;
  let twice = 0;
  let [ax, ay] = ring[n - 1];
  for (let i = 0; i < n; i++) {
    const [bx, by] = ring[i];
    twice += ax * by - bx * ay;
    ax = bx;
    ay = by;
  }
  return twice / 2;
}
