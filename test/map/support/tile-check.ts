/**
 * Reading tiles back for tests: decode with @mapbox/vector-tile (the reader MapLibre's lineage uses), group rings into
 * polygons, find the feature under a point, and move between grid (EPSG:31370) and tile coordinates.
 */
import { classifyRings, VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import proj4 from 'proj4';
import { WEB_MERCATOR_PROJ4 } from '../../../src/geo/crs.js';
import { LAMBERT72_PROJ4 } from '../../../src/geo/lambert72.js';
import type { GridGeometry } from '../../../src/store/dataset-types.js';
import { TILE_EXTENT, tileBox } from '../../../src/map/web-mercator-tiles.js';

const toMercator = proj4(LAMBERT72_PROJ4, WEB_MERCATOR_PROJ4);

/** A decoded polygon feature: its properties and polygons (rings of [x, y] tile coordinates, exterior first). */
export interface DecodedFeature {
  readonly properties: Record<string, unknown>;
  readonly polygons: [number, number][][][];
  readonly raw: VectorTileFeature;
}

/** Decodes `bytes` and returns the features of `layer` (throws if the layer is missing). */
export function decodeLayer(bytes: Uint8Array, layer: string): { features: DecodedFeature[]; extent: number; names: string[] } {
  const tile = new VectorTile(new PbfReader(bytes));
  const names = Object.keys(tile.layers);
  const found = tile.layers[layer];
  if (found === undefined) throw new Error(`No layer ${layer} in the tile (layers: ${names.join(', ')}).`);
  const features: DecodedFeature[] = [];
  for (let i = 0; i < found.length; i++) {
    const feature = found.feature(i);
    const rings = feature.loadGeometry();
    const polygons = classifyRings(rings).map((polygon) => polygon.map((ring) => ring.map((p) => [p.x, p.y] as [number, number])));
    features.push({ properties: feature.properties, polygons, raw: feature });
  }
  return { features, extent: found.extent, names };
}

/** Signed area by the vector-tile library's own formula (positive: exterior in MVT 2.1). */
export function signedArea(ring: readonly [number, number][]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += (ring[j][0] - ring[i][0]) * (ring[i][1] + ring[j][1]);
  return sum;
}

function inRing(ring: readonly [number, number][], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** The features whose polygons contain (x, y) in tile coordinates (holes excluded). */
export function featuresAt(features: readonly DecodedFeature[], x: number, y: number): DecodedFeature[] {
  return features.filter((f) => f.polygons.some(([outer, ...holes]) => inRing(outer, x, y) && !holes.some((h) => inRing(h, x, y))));
}

/** Tile coordinates (not rounded) of a Lambert 72 point in tile (z, x, y). */
export function lambertToTile(z: number, x: number, y: number, lx: number, ly: number): [number, number] {
  const box = tileBox(z, x, y);
  const [mx, my] = toMercator.forward([lx, ly]);
  const scale = TILE_EXTENT / (box.maxX - box.minX);
  return [(mx - box.minX) * scale, (box.maxY - my) * scale];
}

/** Lambert 72 of tile coordinates in tile (z, x, y). */
export function tileToLambert(z: number, x: number, y: number, tx: number, ty: number): [number, number] {
  const box = tileBox(z, x, y);
  const scale = (box.maxX - box.minX) / TILE_EXTENT;
  return toMercator.inverse([box.minX + tx * scale, box.maxY - ty * scale]) as [number, number];
}

/** Centre of cell (row, col) in Lambert 72. */
export function cellCentre(grid: GridGeometry, row: number, col: number): [number, number] {
  return [grid.x0 + col * grid.resolution_m, grid.y0 - row * grid.resolution_m];
}

/** Distance, in cells, from a Lambert point to the nearest grid corner. */
export function cornerDistanceCells(grid: GridGeometry, lx: number, ly: number): number {
  const res = grid.resolution_m;
  const c = (lx - (grid.x0 - res / 2)) / res;
  const r = (grid.y0 + res / 2 - ly) / res;
  return Math.hypot(c - Math.round(c), r - Math.round(r));
}
