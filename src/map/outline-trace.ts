/**
 * Outlines of labelled regions on a raster: every 4-connected group of cells with the same label becomes one polygon,
 * an exterior ring and its holes, in corner coordinates (x = column, y = row, y down; corner (x, y) is the north-west
 * corner of cell (x, y)).
 *
 * Each side between a region cell and anything else is a directed edge with the region on its right (y down):
 * a cell's top side runs east, its right side south, its bottom side west, its left side north. Exterior rings then
 * run clockwise on screen (positive surveyor area) and holes anticlockwise (negative), the MVT winding. Edges are
 * chained at their end vertex, turning left first, then straight, then right: where two cells of one region touch
 * only at a corner, the chain crosses over to the other cell and so keeps following the same empty area, and every
 * ring is simple (no vertex visited twice). A region that encloses an area except for such a corner gets an exterior
 * and a hole touching at that point (what simple-feature rules allow), not one self-touching ring. Only vertices
 * where the direction changes are kept.
 */

/** One region: its label and rings (x, y pairs of corner coordinates, not closed), the exterior first. */
export interface TracedRegion {
  readonly value: number;
  readonly rings: number[][];
}

const DX = [1, 0, -1, 0]; // east, south, west, north
const DY = [0, 1, 0, -1];

/** Labels each 4-connected group of equal, non-NaN labels; −1 for NaN cells. */
function components(labels: Float64Array, w: number, h: number): { comp: Int32Array; values: number[] } {
  const comp = new Int32Array(w * h).fill(-1);
  const values: number[] = [];
  const stack: number[] = [];
  for (let start = 0; start < w * h; start++) {
    const value = labels[start];
    if (comp[start] >= 0 || Number.isNaN(value)) continue;
    const id = values.length;
    values.push(value);
    comp[start] = id;
    stack.push(start);
    while (stack.length > 0) {
      const cell = stack.pop()!;
      const x = cell % w;
      const y = (cell - x) / w;
      for (let d = 0; d < 4; d++) {
        const nx = x + DX[d];
        const ny = y + DY[d];
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        const n = ny * w + nx;
        if (comp[n] < 0 && labels[n] === value) {
          comp[n] = id;
          stack.push(n);
        }
      }
    }
  }
  return { comp, values };
}

/** Traces every region of `labels` (w × h, row-major, NaN = no region). */
export function traceRegions(labels: Float64Array, w: number, h: number): TracedRegion[] {
  const { comp, values } = components(labels, w, h);
  const W = w + 1;
  // Edge (vertex v = y·W + x, direction d) exists when edges[v·4 + d] is 1; its region is the cell on its right.
  const edges = new Uint8Array(W * (h + 1) * 4);
  const regionAt = (x: number, y: number) => (x < 0 || y < 0 || x >= w || y >= h ? -1 : comp[y * w + x]);
  const edgeRegion = (x: number, y: number, d: number) =>
    d === 0 ? regionAt(x, y) : d === 1 ? regionAt(x - 1, y) : d === 2 ? regionAt(x - 1, y - 1) : regionAt(x, y - 1);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const k = comp[y * w + x];
      if (k < 0) continue;
      if (regionAt(x, y - 1) !== k) edges[(y * W + x) * 4 + 0] = 1;
      if (regionAt(x + 1, y) !== k) edges[(y * W + x + 1) * 4 + 1] = 1;
      if (regionAt(x, y + 1) !== k) edges[((y + 1) * W + x + 1) * 4 + 2] = 1;
      if (regionAt(x - 1, y) !== k) edges[((y + 1) * W + x) * 4 + 3] = 1;
    }
  }
  const ringsOf: number[][][] = values.map(() => []);
  for (let e0 = 0; e0 < edges.length; e0++) {
    if (edges[e0] !== 1) continue;
    const region = edgeRegion((e0 >> 2) % W, Math.floor((e0 >> 2) / W), e0 & 3);
    const ring: number[] = [];
    let e = e0;
    for (;;) {
      edges[e] = 2; // used
      const d = e & 3;
      const x = ((e >> 2) % W) + DX[d];
      const y = Math.floor((e >> 2) / W) + DY[d];
      let next = -1;
      for (const turn of [3, 0, 1]) {
        const nd = (d + turn) & 3;
        const candidate = (y * W + x) * 4 + nd;
        if (edges[candidate] !== 0 && edgeRegion(x, y, nd) === region) {
          next = candidate;
          break;
        }
      }
      if (next < 0) throw new Error(`Unclosed outline at corner (${x}, ${y}).`);
      if ((next & 3) !== d) ring.push(x, y);
      if (next === e0) break;
      e = next;
    }
    ringsOf[region].push(ring);
  }
  return values.map((value, k) => ({ value, rings: orderRings(ringsOf[k]) }));
}

/** Twice the signed area (positive: exterior). */
function area2(ring: readonly number[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) sum += ring[j] * ring[i + 1] - ring[i] * ring[j + 1];
  return sum;
}

/**
 * The exterior ring first, then the holes. A 4-connected region has exactly one exterior when pinches are crossed as
 * above (property-tested on random rasters); anything else is a fault of this module.
 */
function orderRings(rings: number[][]): number[][] {
  const exteriors = rings.filter((r) => area2(r) > 0);
  if (exteriors.length !== 1) throw new Error(`A region traced to ${exteriors.length} exterior rings.`);
  return [exteriors[0], ...rings.filter((r) => area2(r) < 0)];
}
