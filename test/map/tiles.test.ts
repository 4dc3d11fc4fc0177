/**
 * Vector tiles drawn from grid slices, decoded with @mapbox/vector-tile and checked against the slices they came
 * from: every valued cell lies in a feature carrying its value (rounded as published), no feature covers a missing
 * cell, blocks at lower zooms publish the mean of their cells, every vertex lies on a grid corner (within half a
 * cell), buildings are traced footprints with holes and MVT winding, and no tile grows past 500 KB.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gridFootprint } from '../../src/map/grid-projection.js';
import { MAP_LAYERS } from '../../src/map/map-layers.js';
import { renderTile, type TileJob } from '../../src/map/tile-drawing.js';
import { roundAway } from '../../src/map/tile-frame.js';
import { tilesCovering, type ZoomRange } from '../../src/map/web-mercator-tiles.js';
import { roundHalfUp } from '../../src/stats/numeric.js';
import type { GridGeometry } from '../../src/store/dataset-types.js';
import {
  cellCentre, cornerDistanceCells, decodeLayer, featuresAt, lambertToTile, signedArea, tileToLambert, type DecodedFeature,
} from './support/tile-check.js';

/** 24 × 24 cells of 10 m next to Grand-Place. */
const GRID: GridGeometry = { crs_epsg: 31370, resolution_m: 10, nx: 24, ny: 24, x0: 148725, y0: 170795 };
const N = GRID.nx * GRID.ny;
const shared = (n: number) => new Float32Array(new SharedArrayBuffer(n * 4));

/** UTCI with a value unique to each cell, missing in the 3 × 3 block at rows and cols 10–12. */
const UTCI = shared(N).map((_, i) => {
  const [r, c] = [Math.floor(i / GRID.nx), i % GRID.nx];
  return r >= 10 && r <= 12 && c >= 10 && c <= 12 ? Number.NaN : Math.fround(-3.25 + r * 0.731 + c * 0.117);
});

const FOOTPRINT = gridFootprint(GRID);
const ZOOMS: ZoomRange = FOOTPRINT.zooms;

/** Every tile of the grid at `z`, rendered and decoded (empty tiles left out). */
function tilesAt(base: Omit<TileJob, 'z' | 'x' | 'y'>, z: number): { x: number; y: number; bytes: Uint8Array }[] {
  const range = tilesCovering(FOOTPRINT.box, z);
  const out: { x: number; y: number; bytes: Uint8Array }[] = [];
  for (let x = range.x0; x <= range.x1; x++) {
    for (let y = range.y0; y <= range.y1; y++) {
      const bytes = renderTile({ ...base, z, x, y });
      if (bytes.byteLength > 0) out.push({ x, y, bytes });
    }
  }
  return out;
}

const thermal: Omit<TileJob, 'z' | 'x' | 'y'> = {
  layer: 'thermal', grid: GRID, maxzoom: ZOOMS.maxzoom, fields: [{ name: 'UTCI', decimals: 1, values: UTCI }],
};

/** The decoded features of tile (z, x, y) of `layer` and the tile they came from. */
function decoded(layer: string, tiles: { x: number; y: number; bytes: Uint8Array }[]) {
  return tiles.map((t) => ({ ...t, features: decodeLayer(t.bytes, layer).features }));
}

/** Checks that every feature starts with an exterior ring and every vertex lies within half a cell of a grid corner. */
function expectVerticesOnCorners(features: DecodedFeature[], z: number, x: number, y: number): void {
  for (const f of features) {
    // MVT winding: the first ring of every feature is an exterior (positive area in tile coordinates, y down).
    expect(signedArea(f.raw.loadGeometry()[0].map((p) => [p.x, p.y] as [number, number]))).toBeGreaterThan(0);
    for (const polygon of f.polygons) {
      for (const ring of polygon) {
        for (const [tx, ty] of ring) expect(cornerDistanceCells(GRID, ...tileToLambert(z, x, y, tx, ty))).toBeLessThan(0.5);
      }
    }
  }
}

describe('zooms of a grid', () => {
  it('publish cells one by one at maxzoom, where a cell is at least 64 tile units wide', () => {
    expect(ZOOMS).toEqual({ minzoom: 15, maxzoom: 16 });
    expect(gridFootprint({ ...GRID, nx: 160, ny: 120 }).zooms).toEqual({ minzoom: 12, maxzoom: 16 });
    expect(gridFootprint({ ...GRID, resolution_m: 20, nx: 80, ny: 60 }).zooms).toEqual({ minzoom: 12, maxzoom: 15 });
  });
});

describe('value tiles', () => {
  it('at maxzoom: every valued cell in a feature with its rounded value, no feature over a missing cell', () => {
    const z = ZOOMS.maxzoom;
    const tiles = decoded('UTCI', tilesAt(thermal, z));
    expect(tiles.length).toBeGreaterThan(0);
    for (let r = 0; r < GRID.ny; r++) {
      for (let c = 0; c < GRID.nx; c++) {
        const [lx, ly] = cellCentre(GRID, r, c);
        const hits = tiles.flatMap((t) => {
          const [tx, ty] = lambertToTile(z, t.x, t.y, lx, ly);
          return tx > 0 && tx < 4096 && ty > 0 && ty < 4096 ? featuresAt(t.features, tx, ty) : [];
        });
        const v = UTCI[r * GRID.nx + c];
        if (Number.isNaN(v)) {
          expect(hits, `cell ${r},${c}`).toEqual([]);
        } else {
          expect(hits.length, `cell ${r},${c}`).toBeGreaterThan(0);
          for (const hit of hits) expect(hit.properties).toEqual({ UTCI: roundHalfUp(v, 1) });
        }
      }
    }
    for (const t of tiles) expectVerticesOnCorners(t.features, z, t.x, t.y);
  });

  it('below maxzoom: a block of 2 × 2 cells publishes the mean of its valued cells', () => {
    const z = ZOOMS.maxzoom - 1;
    const tiles = decoded('UTCI', tilesAt(thermal, z));
    for (let br = 0; br < GRID.ny / 2; br++) {
      for (let bc = 0; bc < GRID.nx / 2; bc++) {
        const values = [0, 1].flatMap((dr) => [0, 1].map((dc) => UTCI[(2 * br + dr) * GRID.nx + 2 * bc + dc])).filter((v) => !Number.isNaN(v));
        const [lx, ly] = cellCentre(GRID, 2 * br + 0.5, 2 * bc + 0.5);
        const hits = tiles.flatMap((t) => featuresAt(t.features, ...lambertToTile(z, t.x, t.y, lx, ly)));
        if (values.length === 0) expect(hits).toEqual([]);
        else for (const hit of hits) expect(hit.properties.UTCI).toBeCloseTo(values.reduce((a, b) => a + b, 0) / values.length, 1);
        if (values.length > 0) expect(hits.length).toBeGreaterThan(0);
      }
    }
    for (const t of tiles) expectVerticesOnCorners(t.features, z, t.x, t.y);
  });

  it('wind and air carry every field in one feature, leaving out the fields a cell lacks', () => {
    const wind = shared(N).map((_, i) => 1 + (i % 7) * 0.123);
    const gust = shared(N).map((_, i) => (i % 5 === 0 ? Number.NaN : 3 + (i % 11) * 0.271));
    const z = ZOOMS.maxzoom;
    const tiles = decoded('wind', tilesAt({
      layer: 'wind', grid: GRID, maxzoom: z,
      fields: [{ name: 'Ucomfort', decimals: 2, values: wind }, { name: 'Ugust', decimals: 2, values: gust }],
    }, z));
    const [lx, ly] = cellCentre(GRID, 0, 5); // i = 5: gust missing
    const [hit] = tiles.flatMap((t) => featuresAt(t.features, ...lambertToTile(z, t.x, t.y, lx, ly)));
    expect(hit.properties).toEqual({ Ucomfort: roundHalfUp(wind[5], 2) });
    const [lx2, ly2] = cellCentre(GRID, 0, 6);
    const [hit2] = tiles.flatMap((t) => featuresAt(t.features, ...lambertToTile(z, t.x, t.y, lx2, ly2)));
    expect(hit2.properties).toEqual({ Ucomfort: roundHalfUp(wind[6], 2), Ugust: roundHalfUp(gust[6], 2) });
  });

  it('is empty (zero bytes) away from the grid and where no cell has a value', () => {
    const range = tilesCovering(FOOTPRINT.box, ZOOMS.maxzoom);
    expect(renderTile({ ...thermal, z: ZOOMS.maxzoom, x: range.x1 + 3, y: range.y0 })).toHaveLength(0);
    const missing = shared(N).fill(Number.NaN);
    expect(renderTile({ ...thermal, fields: [{ name: 'UTCI', decimals: 1, values: missing }], z: ZOOMS.maxzoom, x: range.x0, y: range.y0 })).toHaveLength(0);
  });

  it('stays under 500 KB per tile on a large grid whose every cell differs, at every zoom', () => {
    const big: GridGeometry = { ...GRID, nx: 320, ny: 240 };
    const n = big.nx * big.ny;
    const values = [0, 1, 2].map((k) => shared(n).map((_, i) => 5 + ((i * 7919 + k * 104729) % 100003) / 137));
    const { zooms, box } = gridFootprint(big);
    let largest = 0;
    for (let z = zooms.minzoom; z <= zooms.maxzoom; z++) {
      const range = tilesCovering(box, z);
      // The tiles of the middle row: the full grid width at every zoom.
      const y = Math.floor((range.y0 + range.y1) / 2);
      for (let x = range.x0; x <= range.x1; x++) {
        const bytes = renderTile({
          layer: 'air', grid: big, maxzoom: zooms.maxzoom, z, x, y,
          fields: MAP_LAYERS.air.fields.map((f, k) => ({ name: f.name, decimals: f.decimals, values: values[k] })),
        });
        largest = Math.max(largest, bytes.byteLength);
        expect(decodeLayer(bytes, 'air').features.length).toBeLessThanOrEqual((4096 / 64 + 4) ** 2);
      }
    }
    expect(largest).toBeGreaterThan(10_000);
    expect(largest).toBeLessThanOrEqual(500 * 1024);
  });
});

describe('building tiles', () => {
  /** A ring-shaped building (rows and cols 2–7, courtyard 4–5) 20.3 m tall, and two touching blocks of 12 and 15 m. */
  const outdoor = new Uint8Array(new SharedArrayBuffer(N)).fill(1);
  const height = shared(N);
  const build = (r: number, c: number, h: number) => {
    outdoor[r * GRID.nx + c] = 0;
    height[r * GRID.nx + c] = h;
  };
  for (let r = 2; r <= 7; r++) for (let c = 2; c <= 7; c++) if (!(r >= 4 && r <= 5 && c >= 4 && c <= 5)) build(r, c, 20.3);
  for (let r = 14; r <= 16; r++) for (let c = 14; c <= 19; c++) build(r, c, c < 17 ? 12 : 15);
  const base = { layer: 'buildings' as const, grid: GRID, maxzoom: ZOOMS.maxzoom, buildings: { outdoor, height } };

  it('traces footprints: one polygon per building of equal height, a courtyard as a hole, MVT winding', () => {
    const z = ZOOMS.maxzoom;
    const tiles = decoded('buildings', tilesAt(base, z));
    const all = tiles.flatMap((t) => t.features.map((f) => ({ ...f, t })));
    const ring = all.filter((f) => f.properties.Height === 20.3);
    expect(ring.length).toBeGreaterThan(0);
    for (const f of all) {
      for (const [outer, ...holes] of f.polygons) {
        expect(signedArea(outer)).toBeGreaterThan(0);
        for (const hole of holes) expect(signedArea(hole)).toBeLessThan(0);
      }
      // Raw rings, before classification: the first is an exterior.
      expect(signedArea(f.raw.loadGeometry()[0].map((p) => [p.x, p.y] as [number, number]))).toBeGreaterThan(0);
      expectVerticesOnCorners([f], z, f.t.x, f.t.y);
    }
    // The courtyard is a hole: its centre is in no feature, the ring's cells are.
    const at = (r: number, c: number) => all.filter((f) => featuresAt([f], ...lambertToTile(z, f.t.x, f.t.y, ...cellCentre(GRID, r, c))).length > 0);
    expect(at(4.5, 4.5)).toEqual([]);
    expect(at(2, 2).map((f) => f.properties)).toContainEqual({ Height: 20.3 });
    expect(ring.some((f) => f.polygons.some((p) => p.length === 2))).toBe(true);
    expect(at(15, 15).map((f) => f.properties.Height)).toContain(12);
    expect(at(15, 18).map((f) => f.properties.Height)).toContain(15);
    expect(at(10, 10)).toEqual([]);
  });

  it('below maxzoom: a block is a building when most of its cells are, with their most common height', () => {
    const z = ZOOMS.maxzoom - 1;
    const tiles = decoded('buildings', tilesAt(base, z));
    const at = (r: number, c: number) => tiles.flatMap((t) => featuresAt(t.features, ...lambertToTile(z, t.x, t.y, ...cellCentre(GRID, r, c))));
    expect(at(2.5, 2.5).map((f) => f.properties)).toEqual([{ Height: 20.3 }]);
    // Block (rows 14–15, cols 16–17): two cells of 12 m and two of 15 m; the taller wins the tie.
    expect(at(14.5, 16.5).map((f) => f.properties)).toEqual([{ Height: 15 }]);
    // Block (rows 16–17, cols 14–15): two building cells of four, not more than half.
    expect(at(16.5, 14.5)).toEqual([]);
  });
});

describe('published rounding', () => {
  it('equals the service-wide half-away-from-zero rounding on every float32 value', () => {
    fc.assert(fc.property(fc.float({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), fc.constantFrom(1, 2), (v, decimals) => {
      const f = Math.fround(v);
      expect(roundAway(f, 10 ** decimals)).toBe(roundHalfUp(f, decimals));
    }), { seed: 4204, numRuns: 20_000 });
  });
});
