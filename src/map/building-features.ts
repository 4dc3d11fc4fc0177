/**
 * Features of the buildings layer: footprints traced from the dataset's outdoor mask (0 = building interior) and
 * building heights, one polygon (with holes for courtyards) per 4-connected group of building cells of equal
 * published height, property `Height` in metres. At zooms below `maxzoom` the mask is read per block of cells: a block
 * is a building when more than half of its cells are, and takes the height most of its building cells have (the
 * taller one on a tie), so walls of equal height still merge instead of breaking into per-block averages.
 */
import type { MvtLayer } from './mvt-encoder.js';
import { ringArea2 } from './mvt-encoder.js';
import { traceRegions } from './outline-trace.js';
import { blockCorner, overlapsTile, roundAway, type TileFrame } from './tile-frame.js';

/** The static arrays the layer is drawn from (row-major ny × nx). */
export interface BuildingArrays {
  /** 1 = outdoor cell, 0 = building interior. */
  readonly outdoor: Uint8Array;
  /** Metres above ground. */
  readonly height: Float32Array;
}

/** The published height of block (i, j), or NaN when the block is not a building. */
function blockHeight(frame: TileFrame, arrays: BuildingArrays, scale: number, i: number, j: number, counts: Map<number, number>): number {
  const { grid, block } = frame;
  const rEnd = Math.min(grid.ny, (i + 1) * block);
  const cEnd = Math.min(grid.nx, (j + 1) * block);
  counts.clear();
  let cells = 0;
  let inside = 0;
  for (let r = i * block; r < rEnd; r++) {
    for (let c = j * block; c < cEnd; c++) {
      const k = r * grid.nx + c;
      cells++;
      if (arrays.outdoor[k] === 1) continue;
      inside++;
      const h = roundAway(arrays.height[k], scale);
      counts.set(h, (counts.get(h) ?? 0) + 1);
    }
  }
  if (2 * inside <= cells) return Number.NaN;
  let best = Number.NaN;
  let bestCount = 0;
  for (const [h, n] of counts) {
    if (n > bestCount || (n === bestCount && h > best)) {
      best = h;
      bestCount = n;
    }
  }
  return best;
}

/** Ring in tile coordinates, consecutive repeated vertices (from rounding) dropped. */
function tileRing(frame: TileFrame, ring: readonly number[], i0: number, j0: number): number[] {
  const out: number[] = [];
  const at: number[] = [];
  for (let k = 0; k < ring.length; k += 2) {
    at.length = 0;
    blockCorner(frame, i0 + ring[k + 1], j0 + ring[k], at);
    const n = out.length;
    if (n >= 2 && out[n - 2] === at[0] && out[n - 1] === at[1]) continue;
    out.push(at[0], at[1]);
  }
  while (out.length >= 4 && out[0] === out[out.length - 2] && out[1] === out[out.length - 1]) out.length -= 2;
  return out;
}

/** Adds the building footprints of the tile in `frame` to `layer` (one key: the height field). */
export function addBuildingFeatures(layer: MvtLayer, frame: TileFrame, arrays: BuildingArrays, decimals: number): void {
  const { r0, r1, c0, c1 } = frame.blocks;
  const w = c1 - c0;
  const h = r1 - r0;
  if (w <= 0 || h <= 0) return;
  const scale = 10 ** decimals;
  const labels = new Float64Array(w * h);
  const counts = new Map<number, number>();
  for (let i = 0; i < h; i++) {
    for (let j = 0; j < w; j++) labels[i * w + j] = blockHeight(frame, arrays, scale, r0 + i, c0 + j, counts);
  }
  for (const region of traceRegions(labels, w, h)) {
    const [exterior, ...holes] = region.rings.map((ring) => tileRing(frame, ring, r0, c0));
    if (exterior.length < 6 || ringArea2(exterior) <= 0 || !overlapsTile(exterior)) continue;
    const kept = holes.filter((hole) => hole.length >= 6 && ringArea2(hole) < 0);
    layer.addPolygon([exterior, ...kept], [region.value]);
  }
}
