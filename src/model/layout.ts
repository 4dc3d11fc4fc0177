import { createRandom, type Random } from '../util/random.js';

/**
 * The synthetic urban fabric of the stand-in city model: a street grid with perimeter blocks around courtyards, some
 * open squares, building heights 8–40 m. Defined in metres in zone coordinates (u east, v north, origin at the zone's
 * south-west corner) so that every resolution rasterises the same city.
 */

/** What lies at a point. */
export type SurfaceKind = 'street' | 'courtyard' | 'square' | 'building';

/** One street line: its centre position, width and relative traffic intensity (0 pedestrian … 1 boulevard). */
export interface Street {
  readonly centre: number;
  readonly width: number;
  readonly traffic: number;
}

/** One city block between streets. */
export interface Block {
  readonly u0: number;
  readonly u1: number;
  readonly v0: number;
  readonly v1: number;
  /** Open square: no buildings. */
  readonly open: boolean;
  /** Depth of the building ring, metres; a block with no room for a courtyard is built solid. */
  readonly depth: number;
  /** Heights of the west, east, south and north wings, metres. */
  readonly heights: readonly [number, number, number, number];
  /**
   * A public square framed by buildings: wings of height 0 are not built, and what the built wings leave open is a
   * square rather than a courtyard (the benchmark block).
   */
  readonly plaza?: boolean;
}

/** The layout: streets running north–south (`uStreets`, positions along u) and east–west (`vStreets`), and blocks. */
export interface Layout {
  readonly width: number;
  readonly height: number;
  readonly uStreets: readonly Street[];
  readonly vStreets: readonly Street[];
  /** Blocks indexed [i * (vStreets.length + 1) + j] between uStreets i-1..i and vStreets j-1..j. */
  readonly blocks: readonly Block[];
}

/** What `probe` reports for a point. */
export interface SurfaceProbe {
  readonly kind: SurfaceKind;
  /** Building height at the point (0 outside buildings). */
  readonly height: number;
  /** Traffic intensity of the street the point is in (max of both at a crossing), 0 elsewhere. */
  readonly traffic: number;
  /** Width of the street the point is in, or the block's short side for courtyards and squares. */
  readonly openWidth: number;
  /** Street axis: 0 north–south, 1 east–west, 2 crossing, -1 not a street. */
  readonly axis: number;
}

function streetLines(length: number, rnd: Random, boulevards: boolean): Street[] {
  const lines: Street[] = [];
  let pos = -rnd.next() * 60;
  while (pos < length + 160) {
    const boulevard = boulevards && rnd.next() < 0.15;
    const width = boulevard ? 30 + rnd.next() * 10 : 10 + rnd.next() * 12;
    const pedestrian = !boulevard && rnd.next() < 0.2;
    const traffic = boulevard ? 0.9 + rnd.next() * 0.1 : pedestrian ? 0.03 : 0.25 + rnd.next() * 0.4;
    lines.push({ centre: pos, width, traffic });
    pos += width / 2 + 75 + rnd.next() * 75 + 10;
  }
  return lines;
}

/** The extent of the block between streets i−1..i of `u` and j−1..j of `v` (unbounded beyond the outer streets). */
function blockBounds(u: readonly Street[], v: readonly Street[], i: number, j: number): Pick<Block, 'u0' | 'u1' | 'v0' | 'v1'> {
  return {
    u0: i === 0 ? -1e6 : u[i - 1].centre + u[i - 1].width / 2,
    u1: i === u.length ? 1e6 : u[i].centre - u[i].width / 2,
    v0: j === 0 ? -1e6 : v[j - 1].centre + v[j - 1].width / 2,
    v1: j === v.length ? 1e6 : v[j].centre - v[j].width / 2,
  };
}

/** Options of `generateLayout`. */
export interface LayoutOptions {
  /** The benchmark block instead of a street grid: a square framed by buildings, crossed by two streets. */
  readonly plaza?: boolean | undefined;
  /** Points (zone coordinates, metres) that must be open ground: the blocks holding them become squares. */
  readonly openAt?: readonly (readonly [number, number])[];
}

/** Generates the layout of a zone `width` × `height` metres, deterministic for a seed. */
export function generateLayout(width: number, height: number, seed: number, options: LayoutOptions = {}): Layout {
  const rnd = createRandom(seed).fork('layout');
  if (options.plaza) return plazaLayout(width, height, rnd);
  const uStreets = streetLines(width, rnd, true);
  const vStreets = streetLines(height, rnd, true);
  const blocks: Block[] = [];
  for (let i = 0; i <= uStreets.length; i++) {
    for (let j = 0; j <= vStreets.length; j++) {
      const tall = () => (rnd.next() < 0.12 ? 30 + rnd.next() * 10 : 10 + rnd.next() * 16);
      blocks.push({
        ...blockBounds(uStreets, vStreets, i, j),
        open: rnd.next() < 0.1,
        depth: 14 + rnd.next() * 8,
        heights: [tall(), tall(), tall(), tall()],
      });
    }
  }
  const layout = { width, height, uStreets, vStreets, blocks };
  return options.openAt?.length ? openBlocksAt(layout, options.openAt) : layout;
}

/** The layout with every block that holds one of `points` turned into an open square. */
function openBlocksAt(layout: Layout, points: readonly (readonly [number, number])[]): Layout {
  const holds = (b: Block) => points.some(([u, v]) => u >= b.u0 && u <= b.u1 && v >= b.v0 && v <= b.v1);
  return { ...layout, blocks: layout.blocks.map((b) => (holds(b) ? { ...b, open: true } : b)) };
}

/** Depth of the buildings along the edges of the benchmark block, metres inside the zone. */
const PLAZA_FRAME_M = 12;
/** How far outside the zone the edge buildings reach (streets run beyond them), metres. */
const PLAZA_OUTSIDE_M = 16;

/**
 * The benchmark block: a public square framed by buildings along the zone's edges (`PLAZA_FRAME_M` deep, 15–30 m
 * tall) and crossed through its centre by two streets, so every point within 50 m of a 128 m block's centre is outdoor
 * while each cell there has its own distance to the façades, horizon, shade and traffic.
 */
function plazaLayout(width: number, height: number, rnd: Random): Layout {
  const streets = (length: number): Street[] => [
    { centre: -PLAZA_OUTSIDE_M - 6, width: 12, traffic: 0.4 },
    { centre: length / 2, width: 12, traffic: 0.5 + rnd.next() * 0.2 },
    { centre: length + PLAZA_OUTSIDE_M + 6, width: 12, traffic: 0.4 },
  ];
  const uStreets = streets(width);
  const vStreets = streets(height);
  const blocks: Block[] = [];
  const tall = () => 15 + rnd.next() * 15;
  for (let i = 0; i <= uStreets.length; i++) {
    for (let j = 0; j <= vStreets.length; j++) {
      // Only the wings along the zone's edges are built: west and east by column, south and north by row.
      const built = (edge: boolean) => (edge ? tall() : 0);
      blocks.push({
        ...blockBounds(uStreets, vStreets, i, j), open: false, plaza: true, depth: PLAZA_OUTSIDE_M + PLAZA_FRAME_M,
        heights: [built(i === 1), built(i === 2), built(j === 1), built(j === 2)],
      });
    }
  }
  return { width, height, uStreets, vStreets, blocks };
}

/** Index of the first street whose centre is > pos (binary search). */
function upper(streets: readonly Street[], pos: number): number {
  let lo = 0;
  let hi = streets.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (streets[mid].centre > pos) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function inStreet(streets: readonly Street[], pos: number): Street | undefined {
  const i = upper(streets, pos);
  for (const k of [i - 1, i]) {
    const s = streets[k];
    if (s && Math.abs(pos - s.centre) <= s.width / 2) return s;
  }
  return undefined;
}

/** What is at (u, v). */
export function probe(layout: Layout, u: number, v: number): SurfaceProbe {
  const su = inStreet(layout.uStreets, u);
  const sv = inStreet(layout.vStreets, v);
  if (su || sv) {
    const traffic = Math.max(su?.traffic ?? 0, sv?.traffic ?? 0);
    const openWidth = Math.min(su?.width ?? Infinity, sv?.width ?? Infinity);
    return { kind: 'street', height: 0, traffic, openWidth, axis: su && sv ? 2 : su ? 0 : 1 };
  }
  const i = upper(layout.uStreets, u);
  const j = upper(layout.vStreets, v);
  const block = layout.blocks[i * (layout.vStreets.length + 1) + j];
  const shortSide = Math.min(block.u1 - block.u0, block.v1 - block.v0);
  if (block.open) return { kind: 'square', height: 0, traffic: 0, openWidth: shortSide, axis: -1 };
  const dw = u - block.u0;
  const de = block.u1 - u;
  const ds = v - block.v0;
  const dn = block.v1 - v;
  if (block.plaza) return probePlaza(block, [dw, de, ds, dn], shortSide);
  const edge = Math.min(dw, de, ds, dn);
  const courtyardSize = shortSide - 2 * block.depth;
  if (edge > block.depth && courtyardSize >= 8) {
    return { kind: 'courtyard', height: 0, traffic: 0, openWidth: courtyardSize, axis: -1 };
  }
  const wing = edge === dw ? 0 : edge === de ? 1 : edge === ds ? 2 : 3;
  return { kind: 'building', height: block.heights[wing], traffic: 0, openWidth: 0, axis: -1 };
}

/** What is at a point of a plaza block, `distances` to its west, east, south and north edges. */
function probePlaza(block: Block, distances: readonly number[], shortSide: number): SurfaceProbe {
  let wing = -1;
  for (let k = 0; k < 4; k++) {
    if (block.heights[k] > 0 && distances[k] <= block.depth && (wing < 0 || distances[k] < distances[wing])) wing = k;
  }
  if (wing < 0) return { kind: 'square', height: 0, traffic: 0, openWidth: shortSide, axis: -1 };
  return { kind: 'building', height: block.heights[wing], traffic: 0, openWidth: 0, axis: -1 };
}
