/**
 * The zoom range keeps every tile within budget at 1 m and city extent: a 1 m grid the size of the Brussels-Capital
 * Region is served from maxzoom − 4, where one tile spans at most 1,024 cells per side and reads at most
 * (1,024 + 4 · block)² cells; grids no wider than 1,024 cells (every dataset so far) keep the zooms they had; and the
 * widest tiles of every annual layer, on a 1 m grid whose every cell differs, stay under 500 KB at every zoom.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANNUAL_LAYERS } from '../../src/map/annual-layers.js';
import { gridFootprint } from '../../src/map/grid-projection.js';
import { renderTile } from '../../src/map/tile-drawing.js';
import { tileBlocks } from '../../src/map/tile-frame.js';
import {
  MAX_TILE_SPAN_CELLS, TILE_EXTENT, tileSpan, tilesCovering, WORLD_M, zoomRange,
} from '../../src/map/web-mercator-tiles.js';
import type { GridGeometry } from '../../src/store/dataset-types.js';
import { decodeLayer } from './support/tile-check.js';

/** About 16 km × 14 km at 1 m over Brussels (Lambert 72): the region's extent, 224 million cells. */
const CITY: GridGeometry = { crs_epsg: 31370, resolution_m: 1, nx: 16_000, ny: 14_000, x0: 141_000.5, y0: 178_999.5 };

describe('the zoom range at 1 m and city extent', () => {
  const { zooms, box, cellM } = gridFootprint(CITY);

  it('starts four zooms below maxzoom, where a tile spans at most 1,024 cells per side', () => {
    expect(zooms.maxzoom).toBe(19);
    expect(zooms.minzoom).toBe(zooms.maxzoom - 4);
    expect(tileSpan(zooms.minzoom) / cellM).toBeLessThanOrEqual(MAX_TILE_SPAN_CELLS);
    // One zoom further out a tile would span more, and the extent alone (the old rule) would have allowed zoom 9.
    expect(tileSpan(zooms.minzoom - 1) / cellM).toBeGreaterThan(MAX_TILE_SPAN_CELLS);
    expect(Math.floor(Math.log2(WORLD_M / Math.max(box.maxX - box.minX, box.maxY - box.minY))) - 1).toBe(9);
  });

  it('reads at most (1,024 + 4 · block)² cells for any tile of any served zoom', () => {
    let widest = 0;
    for (let z = zooms.minzoom; z <= zooms.maxzoom; z++) {
      const range = tilesCovering(box, z);
      const midX = (range.x0 + range.x1) >> 1;
      const midY = (range.y0 + range.y1) >> 1;
      // The middle row and the middle column: tiles over the grid's interior, its edges and its corners.
      const tiles = [
        ...Array.from({ length: range.x1 - range.x0 + 1 }, (_, i) => [range.x0 + i, midY]),
        ...Array.from({ length: range.y1 - range.y0 + 1 }, (_, i) => [midX, range.y0 + i]),
      ];
      for (const [x, y] of tiles) {
        const { block, blocks } = tileBlocks(CITY, z, x!, y!, zooms.maxzoom);
        const rows = Math.min(CITY.ny, blocks.r1 * block) - Math.min(CITY.ny, blocks.r0 * block);
        const cols = Math.min(CITY.nx, blocks.c1 * block) - Math.min(CITY.nx, blocks.c0 * block);
        const cells = Math.max(0, rows) * Math.max(0, cols);
        expect(cells, `tile ${z}/${x}/${y}`).toBeLessThanOrEqual((MAX_TILE_SPAN_CELLS + 4 * block) ** 2);
        expect((blocks.r1 - blocks.r0) * (blocks.c1 - blocks.c0), `blocks of ${z}/${x}/${y}`).toBeLessThanOrEqual((TILE_EXTENT / 64 + 4) ** 2);
        widest = Math.max(widest, cells);
      }
    }
    expect(widest).toBeGreaterThan(MAX_TILE_SPAN_CELLS ** 2 / 2);
  });
});

describe('grids no wider than 1,024 cells', () => {
  it('keep the zooms the extent alone gives (the fixture, the demo and the bench block unchanged)', () => {
    fc.assert(fc.property(fc.double({ min: 0.5, max: 200, noNaN: true }), fc.integer({ min: 1, max: MAX_TILE_SPAN_CELLS }), (cellM, cells) => {
      const { minzoom, maxzoom } = zoomRange(cellM, cells * cellM);
      const fits = Math.floor(Math.log2(WORLD_M / (cells * cellM)));
      expect(minzoom).toBe(Math.max(0, Math.min(maxzoom, fits - 1)));
    }), { seed: 2525, numRuns: 500 });
  });
});

describe('annual tiles on a 1 m grid whose every cell differs', () => {
  const grid: GridGeometry = { crs_epsg: 31370, resolution_m: 1, nx: 320, ny: 240, x0: 148_085, y0: 171_115 };
  const n = grid.nx * grid.ny;
  const { zooms, box } = gridFootprint(grid);

  it.each(Object.values(ANNUAL_LAYERS).map((l) => [l.id, l] as const))('%s stays under 500 KB at every zoom', (_, layer) => {
    const fields = layer.fields.map((f, k) => {
      const values = new Float32Array(new SharedArrayBuffer(n * 4));
      for (let i = 0; i < n; i++) {
        values[i] = f.aggregate === 'mode' ? 1 + ((i * 31 + k) % 3) : ((i * 7919 + k * 104729) % 100003) / 10 ** f.decimals;
      }
      return { name: f.name, decimals: f.decimals, values, aggregate: f.aggregate };
    });
    let largest = 0;
    for (let z = zooms.minzoom; z <= zooms.maxzoom; z++) {
      const range = tilesCovering(box, z);
      const y = (range.y0 + range.y1) >> 1;
      for (let x = range.x0; x <= range.x1; x++) {
        const bytes = renderTile({ layer: layer.id, grid, maxzoom: zooms.maxzoom, z, x, y, fields });
        largest = Math.max(largest, bytes.byteLength);
        expect(decodeLayer(bytes, layer.sourceLayer).features.length).toBeLessThanOrEqual((TILE_EXTENT / 64 + 4) ** 2);
      }
    }
    expect(largest).toBeGreaterThan(50_000);
    expect(largest).toBeLessThanOrEqual(500 * 1024);
  });
});
