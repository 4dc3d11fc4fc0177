/**
 * Precomputed grids for the annual tiles' tests: a 1 m grid whose width and height cross tile edges at every zoom,
 * values with one decimal, NaN in "buildings" and a coded 1 … 3 for the limiting pollutant; every annual tile over it,
 * and each drawn from the whole grids.
 */
import { ANNUAL_LAYERS, type AnnualLayer } from '../../../src/map/annual-layers.js';
import { gridFootprint } from '../../../src/map/grid-projection.js';
import type { MapLayerDef } from '../../../src/map/map-layers.js';
import { renderTile } from '../../../src/map/tile-drawing.js';
import { tilesCovering } from '../../../src/map/web-mercator-tiles.js';
import { PRECOMPUTE_GRIDS, type PrecomputeGrid } from '../../../src/stats/atlas-figures.js';
import type { GridGeometry } from '../../../src/store/dataset-types.js';

/** A 1 m grid over central Brussels whose width and height cross tile edges at every zoom. */
export const GRID: GridGeometry = { crs_epsg: 31370, resolution_m: 1, nx: 173, ny: 139, x0: 148_000.5, y0: 171_999.5 };

/** Grid `k`'s value at (r, c): one decimal, NaN in "buildings", a coded 1 … 3 for the limiting pollutant. */
function value(k: number, r: number, c: number, coded: boolean): number {
  if (((r >> 3) + (c >> 3)) % 4 === 0 && (r & 7) > 1 && (c & 7) > 1) return Number.NaN;
  if (coded) return 1 + ((r * 7 + c * 3 + k) % 3);
  return Math.round((5 + 3 * Math.sin((c + k) / 11) * Math.cos(r / 7) + ((r * 31 + c * 17) % 5) / 10) * 10) / 10;
}

/** The whole grid `name`, row-major. */
export function whole(name: PrecomputeGrid): Float32Array {
  const k = PRECOMPUTE_GRIDS.indexOf(name);
  const out = new Float32Array(GRID.nx * GRID.ny);
  for (let r = 0; r < GRID.ny; r++) for (let c = 0; c < GRID.nx; c++) out[r * GRID.nx + c] = value(k, r, c, name === 'air_limiting_pollutant');
  return out;
}

/** Every grid of the precompute whole, by name. */
export function wholeGrids(): Map<PrecomputeGrid, Float32Array> {
  return new Map(PRECOMPUTE_GRIDS.map((name) => [name, whole(name)]));
}

/** An annual tile of GRID: what draws it, and its layer. */
export interface AnnualTile {
  readonly base: { readonly layer: AnnualLayer; readonly grid: GridGeometry; readonly maxzoom: number; readonly z: number; readonly x: number; readonly y: number };
  readonly layer: MapLayerDef;
}

/** Every annual tile of GRID: every zoom of its range, every tile over its box, every annual layer. */
export function* annualTiles(): Generator<AnnualTile> {
  const { zooms, box } = gridFootprint(GRID);
  for (let z = zooms.minzoom; z <= zooms.maxzoom; z++) {
    const range = tilesCovering(box, z);
    for (let x = range.x0; x <= range.x1; x++) {
      for (let y = range.y0; y <= range.y1; y++) {
        for (const layer of Object.values(ANNUAL_LAYERS)) {
          yield { base: { layer: layer.id as AnnualLayer, grid: GRID, maxzoom: zooms.maxzoom, z, x, y }, layer };
        }
      }
    }
  }
}

/** Tile `tile` drawn from the whole grids `grids` (what a tile drawn any other way must equal, byte for byte). */
export function wholeGridTile(tile: AnnualTile, grids: ReadonlyMap<PrecomputeGrid, Float32Array>): Uint8Array {
  const fields = tile.layer.fields.map((f) => ({
    name: f.name, decimals: f.decimals, aggregate: f.aggregate ?? 'mean', values: grids.get(f.source as PrecomputeGrid)!,
  }));
  return renderTile({ ...tile.base, fields });
}
