/**
 * The precompute's overviews and square chunks (map/annual-overviews.ts, store/grid-group-writer.ts): every overview
 * holds the published values `blockTable` gives over the whole grid, whatever the heights of the bands it was made
 * from; annual tiles at every zoom drawn from them are byte for byte the tiles drawn from the whole grids, without
 * folding a band; a window decodes only the chunks it overlaps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNUAL_LAYERS } from '../../src/map/annual-layers.js';
import { annualOverviews, overviewPath } from '../../src/map/annual-overviews.js';
import { annualTileJob } from '../../src/map/annual-tables.js';
import { AnnualWindows } from '../../src/map/annual-windows.js';
import { blockTable } from '../../src/map/cell-features.js';
import { gridFootprint } from '../../src/map/grid-projection.js';
import { renderTile } from '../../src/map/tile-drawing.js';
import { PRECOMPUTE_GRIDS, type PrecomputeGrid } from '../../src/stats/atlas-figures.js';
import { openGridGroup, type GridGroup } from '../../src/store/grid-group-reader.js';
import { writeGridGroup } from '../../src/store/grid-group-writer.js';
import { expectSameArray } from '../helpers/same-array.js';
import { tempDir } from '../store/helpers.js';
import { annualTiles, GRID, wholeGrids, wholeGridTile } from './support/annual-grids.js';

/** Bands of 12 rows: blocks of 8 rows straddle bands, so block rows are carried across them. */
const BAND_ROWS = 12;
/** Chunks of 48 columns: the grid's 173 end in a short one. */
const CHUNK_COLS = 48;

/** The block sizes the map publishes below its deepest zoom: 2, 4, … 2^(maxzoom − minzoom). */
const BLOCKS = ((zooms) => Array.from({ length: zooms.maxzoom - zooms.minzoom }, (_, k) => 2 ** (k + 1)))(gridFootprint(GRID).zooms);
const grids = wholeGrids();
let root: { dir: string; cleanup: () => Promise<void> };
let group: GridGroup;

beforeAll(async () => {
  root = await tempDir('overviews');
  await writeGridGroup(`${root.dir}/group`, GRID, PRECOMPUTE_GRIDS.map((name) => ({ name })), {
    bandRows: BAND_ROWS,
    chunkCols: CHUNK_COLS,
    read: async (r0, r1, k) => grids.get(PRECOMPUTE_GRIDS[k]!)!.slice(r0 * GRID.nx, r1 * GRID.nx),
  }, () => ({ content_version: 'test' }), annualOverviews(GRID, PRECOMPUTE_GRIDS));
  group = (await openGridGroup(`${root.dir}/group`, GRID.ny, GRID.nx))!;
});
afterAll(() => root.cleanup());

describe('annual overviews', () => {
  it('are written for every block size the map publishes below its deepest zoom', () => {
    const { minzoom, maxzoom } = gridFootprint(GRID).zooms;
    expect(maxzoom - minzoom).toBeGreaterThanOrEqual(3);
    expect(BLOCKS.some((block) => BAND_ROWS % block !== 0)).toBe(true);
    for (const layer of Object.values(ANNUAL_LAYERS)) {
      for (const field of layer.fields) {
        for (const block of BLOCKS) expect(group.derived(overviewPath(field, block)), `${field.source} ${block}`).toMatchObject({ rows: Math.ceil(GRID.ny / block) });
        expect(group.derived(overviewPath(field, 1))).toBeUndefined();
        expect(group.derived(overviewPath(field, 2 * BLOCKS.at(-1)!))).toBeUndefined();
      }
    }
  });

  it('hold the published value of every block over the whole grid', async () => {
    const windows = new AnnualWindows(64 * 1024 * 1024);
    let checked = 0;
    for (const layer of Object.values(ANNUAL_LAYERS)) {
      for (const field of layer.fields) {
        for (const block of BLOCKS) {
          const blocks = { r0: 0, r1: Math.ceil(GRID.ny / block), c0: 0, c1: Math.ceil(GRID.nx / block) };
          const aggregate = field.aggregate ?? 'mean';
          const want = blockTable({ grid: GRID, block, blocks }, { name: field.name, decimals: field.decimals, aggregate, values: grids.get(field.source as PrecomputeGrid)! });
          const got = await windows.overview(group, 'v1', overviewPath(field, block), blocks);
          expectSameArray(got!, want, `${field.source} ${aggregate} at ${block}`);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(80);
    expect(await windows.overview(group, 'v1', overviewPath({ source: 'air_rating', decimals: 3 }, 2), { r0: 0, r1: 1, c0: 0, c1: 1 })).toBeUndefined();
  });

  it('draw every tile at every zoom as from the whole grids, without folding a band of cells', async () => {
    const windows = new AnnualWindows(2 * 1024 * 1024);
    let rowsRead = 0;
    const counted: GridGroup = {
      ...group,
      readRows: (name, r0, r1) => {
        rowsRead += r1 - r0;
        return group.readRows(name, r0, r1);
      },
    };
    let tiles = 0;
    for (const tile of annualTiles()) {
      const { layer, z, x, y } = tile.base;
      const job = await annualTileJob({ windows, group: counted, version: 'v1' }, tile.base, tile.layer.fields);
      expect(Buffer.compare(renderTile(job), wholeGridTile(tile, grids)), `${layer} ${z}/${x}/${y}`).toBe(0);
      tiles++;
    }
    expect(tiles).toBeGreaterThan(60);
    expect(rowsRead).toBe(0);
  });

  it('decode only the chunks a window of cells overlaps', async () => {
    const windows = new AnnualWindows(64 * 1024 * 1024);
    const values = await windows.read(group, 'v1', 'wind_rating', { r0: 12, r1: 25, c0: 30, c1: 50 });
    const want = grids.get('wind_rating')!;
    for (let r = 12; r < 25; r++) for (let c = 30; c < 50; c++) expect(Object.is(values[(r - 12) * 20 + c - 30], want[r * GRID.nx + c])).toBe(true);
    // Rows 12 … 24 lie in bands 1 and 2, columns 30 … 49 in chunk columns 0 and 1.
    expect(windows.stats()).toMatchObject({ entries: 4, misses: 4 });
    const corner = await windows.read(group, 'v1', 'wind_rating', { r0: 130, r1: 139, c0: 160, c1: 173 });
    for (let r = 130; r < 139; r++) for (let c = 160; c < 173; c++) expect(Object.is(corner[(r - 130) * 13 + c - 160], want[r * GRID.nx + c])).toBe(true);
    // Rows 130 … 138 lie in bands 10 and 11 (the short last one), columns 160 … 172 in chunk column 3 (the short last one).
    expect(windows.stats()).toMatchObject({ entries: 6, misses: 6 });
  });
});
