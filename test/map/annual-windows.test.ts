/**
 * Annual tiles of a precompute written before overviews and square chunks (one chunk per band of full-width rows)
 * read only the window of each precomputed grid their blocks cover (map/annual-windows.ts), or below the
 * deepest zoom the published values of their blocks (map/annual-tables.ts), from bands kept in a bounded cache: every
 * tile at every zoom of a grid is byte for byte the tile drawn from the whole grids, the cache never holds more than
 * its budget, a window reads only the bands it overlaps, and the tiles of a zoom decode each band once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRECOMPUTE_GRIDS } from '../../src/stats/atlas-figures.js';
import { ANNUAL_LAYERS } from '../../src/map/annual-layers.js';
import { annualTileJob } from '../../src/map/annual-tables.js';
import { AnnualWindows } from '../../src/map/annual-windows.js';
import type { FieldSlice } from '../../src/map/cell-features.js';
import { gridFootprint } from '../../src/map/grid-projection.js';
import { renderTile } from '../../src/map/tile-drawing.js';
import { frameWindow, tileBlocks } from '../../src/map/tile-frame.js';
import { tilesCovering } from '../../src/map/web-mercator-tiles.js';
import { openGridGroup, type GridGroup } from '../../src/store/grid-group-reader.js';
import { writeGridGroup } from '../../src/store/grid-group-writer.js';
import { annualTiles, GRID, wholeGrids, wholeGridTile } from './support/annual-grids.js';

const BAND_ROWS = 16;

describe('annual tiles over windows', () => {
  let dir: string;
  let group: GridGroup;
  const grids = wholeGrids();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-annual-windows-'));
    await writeGridGroup(join(dir, 'group'), GRID, PRECOMPUTE_GRIDS.map((name) => ({ name })), {
      bandRows: BAND_ROWS,
      read: async (r0, r1, k) => grids.get(PRECOMPUTE_GRIDS[k]!)!.slice(r0 * GRID.nx, r1 * GRID.nx),
    }, () => ({ content_version: 'test' }));
    group = (await openGridGroup(join(dir, 'group'), GRID.ny, GRID.nx))!;
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('draws every tile at every zoom as from the whole grids, within the band cache budget', async () => {
    // Room for three bands of a grid: the cache evicts all along.
    const budget = 3 * (BAND_ROWS * GRID.nx * 4 + 400);
    const windows = new AnnualWindows(budget);
    let tiles = 0;
    for (const tile of annualTiles()) {
      const { layer, z, x, y, maxzoom } = tile.base;
      const cells = frameWindow(tileBlocks(GRID, z, x, y, maxzoom));
      const fromWindow: FieldSlice[] = [];
      for (const f of tile.layer.fields) {
        const values = await windows.read(group, 'v1', f.source, cells);
        expect(values.length).toBe((cells.r1 - cells.r0) * (cells.c1 - cells.c0));
        fromWindow.push({ name: f.name, decimals: f.decimals, aggregate: f.aggregate ?? 'mean', values, row0: cells.r0, col0: cells.c0, width: cells.c1 - cells.c0 });
      }
      const expected = wholeGridTile(tile, grids);
      expect(Buffer.compare(renderTile({ ...tile.base, fields: fromWindow }), expected), `${layer} ${z}/${x}/${y}`).toBe(0);
      if (expected.byteLength > 0) tiles++;
      expect(windows.stats().bytes).toBeLessThanOrEqual(budget);
    }
    expect(tiles).toBeGreaterThan(30);
  });

  it('draws every tile at every zoom as from the whole grids from block tables and windows, within the budget', async () => {
    const { minzoom, maxzoom } = gridFootprint(GRID).zooms;
    expect(maxzoom - minzoom).toBeGreaterThanOrEqual(3);
    // Room for a few bands and table bands: the cache evicts all along, tables and bands alike.
    const budget = 4 * (BAND_ROWS * GRID.nx * 4 + 400);
    const windows = new AnnualWindows(budget);
    let tiles = 0;
    for (const tile of annualTiles()) {
      const { layer, z, x, y } = tile.base;
      const job = await annualTileJob({ windows, group, version: 'v1' }, tile.base, tile.layer.fields);
      // Block tables below the deepest zoom, windows of cells at it.
      expect(job.tables !== undefined, `${z}`).toBe(z < maxzoom);
      const expected = wholeGridTile(tile, grids);
      expect(Buffer.compare(renderTile(job), expected), `${layer} ${z}/${x}/${y}`).toBe(0);
      if (expected.byteLength > 0) tiles++;
      expect(windows.stats().bytes).toBeLessThanOrEqual(budget);
    }
    expect(tiles).toBeGreaterThan(30);
  });

  it('decodes each band once for the block tables of every tile of a zoom while they stay cached', async () => {
    const { zooms, box } = gridFootprint(GRID);
    const windows = new AnnualWindows(64 * 1024 * 1024);
    const layer = ANNUAL_LAYERS.annual_wind;
    let rowsRead = 0;
    const counted: GridGroup = {
      ...group,
      readRows: (name, r0, r1) => {
        rowsRead += r1 - r0;
        return group.readRows(name, r0, r1);
      },
    };
    const range = tilesCovering(box, zooms.minzoom + 1);
    expect((range.x1 - range.x0 + 1) * (range.y1 - range.y0 + 1)).toBeGreaterThan(1);
    for (let x = range.x0; x <= range.x1; x++) {
      for (let y = range.y0; y <= range.y1; y++) {
        await annualTileJob({ windows, group: counted, version: 'v1' }, { layer: layer.id, grid: GRID, maxzoom: zooms.maxzoom, z: zooms.minzoom + 1, x, y }, layer.fields);
      }
    }
    // Every row of every field read once, kept as one table band per stored band: nothing decoded twice.
    const bands = Math.ceil(GRID.ny / BAND_ROWS) * layer.fields.length;
    expect(rowsRead).toBe(GRID.ny * layer.fields.length);
    expect(windows.stats()).toMatchObject({ misses: bands, entries: bands });
  });

  it('reads only the bands a window overlaps, once while they stay cached', async () => {
    const windows = new AnnualWindows(64 * 1024 * 1024);
    const values = await windows.read(group, 'v1', 'wind_rating', { r0: 20, r1: 40, c0: 5, c1: 50 });
    for (let r = 20; r < 40; r++) for (let c = 5; c < 50; c++) expect(values[(r - 20) * 45 + c - 5]).toBe(grids.get('wind_rating')![r * GRID.nx + c]);
    // Rows 20 … 39 lie in bands 1 and 2.
    expect(windows.stats()).toMatchObject({ entries: 2, misses: 2 });
    await windows.read(group, 'v1', 'wind_rating', { r0: 32, r1: 48, c0: 0, c1: GRID.nx });
    expect(windows.stats()).toMatchObject({ entries: 2, misses: 2 });
    expect((await windows.read(group, 'v1', 'wind_rating', { r0: 7, r1: 7, c0: 0, c1: 9 })).length).toBe(0);
  });
});
