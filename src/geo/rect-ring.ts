/**
 * Lambert 72 rectangles and their WGS 84 outlines. A high-resolution zone is a rectangle in EPSG:31370 that its dataset
 * grid covers exactly; clients receive the rectangle as a WGS 84 ring. Densifying the edges keeps the ring faithful
 * where a straight Lambert edge is a slightly curved line in [lon, lat].
 *
 * The ring is published at 6 decimals and every vertex is rounded TOWARDS the interior (then checked back in Lambert,
 * at least `INWARD_MARGIN_M` inside), so the ring lies within the rectangle: a point the ring strictly contains always
 * has a grid cell under it. The price is a sliver of at most ~0.1 m along the edges that the ring leaves out.
 */
import { lambert72ToWgs84, wgs84ToLambert72 } from './crs.js';

/** An axis-aligned rectangle in EPSG:31370 metres (xmin < xmax, ymin < ymax). */
export interface LambertRect {
  readonly xmin: number;
  readonly ymin: number;
  readonly xmax: number;
  readonly ymax: number;
}

/** Decimal places of published boundary coordinates (about 0.1 m). */
const RING_DECIMALS = 6;

/** How far inside the rectangle every published vertex must map back to, metres; covers chord sagitta. */
export const INWARD_MARGIN_M = 0.001;

const UNIT = 10 ** -RING_DECIMALS;
const SCALE = 10 ** RING_DECIMALS;

/**
 * Points along the rectangle's edges in Lambert metres, counter-clockwise from the south-west corner, spaced evenly at
 * most `stepM` apart, every corner included, first point repeated last.
 */
export function densifyRect(rect: LambertRect, stepM: number): [number, number][] {
  if (!(rect.xmin < rect.xmax && rect.ymin < rect.ymax)) throw new RangeError('The rectangle has no area.');
  if (!(stepM > 0)) throw new RangeError('The densification step must be positive.');
  const corners: [number, number][] = [
    [rect.xmin, rect.ymin],
    [rect.xmax, rect.ymin],
    [rect.xmax, rect.ymax],
    [rect.xmin, rect.ymax],
  ];
  const out: [number, number][] = [];
  for (let c = 0; c < 4; c++) {
    const [ax, ay] = corners[c];
    const [bx, by] = corners[(c + 1) % 4];
    const n = Math.ceil(Math.hypot(bx - ax, by - ay) / stepM);
    // Endpoints are assigned exactly (no interpolation error), so corners stay on the 40 m lattice.
    for (let i = 0; i < n; i++) out.push(i === 0 ? [ax, ay] : [ax + ((bx - ax) * i) / n, ay + ((by - ay) * i) / n]);
  }
  out.push(out[0]);
  return out;
}

/** Rounds `v` to the published precision in the given direction: -1 down, +1 up, 0 to nearest. */
function roundTo(v: number, direction: -1 | 0 | 1): number {
  const scaled = Number((v * SCALE).toPrecision(15));
  const r = direction < 0 ? Math.floor(scaled) : direction > 0 ? Math.ceil(scaled) : Math.round(scaled);
  return r / SCALE;
}

/**
 * Maps one Lambert point of the rectangle's outline to [lon, lat] at 6 decimals, pushing it inwards until it maps back
 * at least `INWARD_MARGIN_M` inside every edge it sits on. Over Belgium lon grows with x and lat with y, so rounding
 * up on the west and south edges and down on the east and north edges moves inwards.
 */
function inwardVertex(rect: LambertRect, x: number, y: number): [number, number] {
  const west = x === rect.xmin;
  const east = x === rect.xmax;
  const south = y === rect.ymin;
  const north = y === rect.ymax;
  const [lon0, lat0] = lambert72ToWgs84(x, y);
  let lon = roundTo(lon0, west ? 1 : east ? -1 : 0);
  let lat = roundTo(lat0, south ? 1 : north ? -1 : 0);
  for (let attempt = 0; attempt < 100; attempt++) {
    const [px, py] = wgs84ToLambert72(lon, lat);
    const fixLon = (west && px < rect.xmin + INWARD_MARGIN_M) || (east && px > rect.xmax - INWARD_MARGIN_M);
    const fixLat = (south && py < rect.ymin + INWARD_MARGIN_M) || (north && py > rect.ymax - INWARD_MARGIN_M);
    if (!fixLon && !fixLat) return [lon, lat];
    if (fixLon) lon = roundTo(lon + (west ? UNIT : -UNIT), 0);
    if (fixLat) lat = roundTo(lat + (south ? UNIT : -UNIT), 0);
  }
  throw new RangeError(`Cannot place an outline vertex inside the rectangle near (${x}, ${y}).`);
}

/**
 * The rectangle as a closed WGS 84 ring of [lon, lat] at 6 decimals: edges densified every `stepM` metres,
 * counter-clockwise (GeoJSON exterior order), first position repeated last, every vertex inside the rectangle.
 */
export function rectToWgs84Ring(rect: LambertRect, stepM = 100): [number, number][] {
  const open = densifyRect(rect, stepM).slice(0, -1);
  const ring = open.map(([x, y]) => inwardVertex(rect, x, y));
  ring.push([ring[0][0], ring[0][1]]);
  return ring;
}
