/**
 * The annual tiles below the deepest zoom, drawn from the published values of their blocks (cell-features.ts
 * `blockTable`) rather than from windows of cells. A tile at zoom z publishes blocks of 2^(maxzoom − z) cells a side,
 * up to 1,024 cells a side in all at the coarsest zoom (web-mercator-tiles.ts `MAX_TILE_SPAN_CELLS`). The precompute
 * writes those values as overviews (annual-overviews.ts): a tile reads the window of its blocks from the overview of
 * its zoom's block size, a few chunks whatever the grid's extent.
 *
 * A precompute without overviews (written before them) is drawn by folding bands of cells: a tile's window would
 * decode every band of rows it covers for each of its figures, and the tiles beside it the same bands again, since a
 * coarse tile's bands are more than the band cache holds. So a band of stored rows, once decoded, is folded into the
 * published values of every block of those rows across
 * the whole grid width, and that table band (8 bytes a block, half the band's bytes or less) is what is kept, in the
 * same byte-bounded cache as the bands (annual-windows.ts); the band itself is dropped, so bands never push tables
 * out. The tiles of a zoom then decode each band once per figure between them, whichever comes first, and hold at most
 * one band and its table per figure at a time; the task posted to a compute thread carries the tables, not the cells. The fold runs
 * where the job is made (the serving thread), one band at a time between reads. A tile's table is cut from the table
 * bands its block rows lie in: a block's published value depends on the block's cells alone, computed by the same
 * function in the same order, so the tile's bytes are those drawn from whole grids.
 */
import type { PrecomputeGrid } from '../stats/atlas-figures.js';
import type { GridGeometry } from '../store/dataset-types.js';
import type { GridGroup } from '../store/grid-group-reader.js';
import type { AnnualWindows } from './annual-windows.js';
import { overviewPath } from './annual-overviews.js';
import { blockTable } from './cell-features.js';
import type { CellWindow } from './grid-projection.js';
import type { TileField } from './map-layers.js';
import type { TileJob } from './tile-drawing.js';
import { frameWindow, tileBlocks } from './tile-frame.js';

/** What a table band is made of and where: a figure of a served precompute, at one block size. */
export interface TableSource {
  readonly windows: AnnualWindows;
  readonly group: GridGroup;
  /** The precompute's version (a key part: a new precompute is read anew). */
  readonly version: string;
  readonly grid: GridGeometry;
  /** Cells a side of a block. */
  readonly block: number;
}

/** Cell rows a table band covers: whole blocks, at least one stored band (so a band is decoded once per table band). */
function tableBandRows(source: TableSource, field: TileField): number {
  const { block, group } = source;
  return block * Math.ceil(group.grid(field.source).chunkRows / block);
}

/** Table band `k` of `field`: the published values of block rows k · rows / block … over every block column. */
function tableBand(source: TableSource, field: TileField, k: number): Promise<Float64Array> {
  const { windows, group, version, grid, block } = source;
  const rows = tableBandRows(source, field);
  const aggregate = field.aggregate ?? 'mean';
  const key = `${group.dir}|${version}|${field.source}|${block}|${field.decimals}|${aggregate}|${k}`;
  return windows.tableBand(key, async () => {
    const r0 = k * rows;
    const r1 = Math.min(grid.ny, r0 + rows);
    // Decoded here and dropped: only the table is kept, so bands do not push the tables out of the cache.
    const values = await group.readRows(field.source, r0, r1);
    const blocks = { r0: r0 / block, r1: Math.ceil(r1 / block), c0: 0, c1: Math.ceil(grid.nx / block) };
    return blockTable({ grid, block, blocks }, { name: field.name, decimals: field.decimals, aggregate, values, row0: r0, col0: 0, width: grid.nx });
  });
}

/**
 * The published value of `field` in every block of `blocks` (in block units, as a tile frame's, tile-frame.ts):
 * block (i, j) at (i − r0) · (c1 − c0) + j − c0, equal to cell-features.ts `blockTable` over the whole grid.
 */
async function annualBlockTable(source: TableSource, field: TileField, blocks: CellWindow): Promise<Float64Array> {
  const overview = await source.windows.overview(source.group, source.version, overviewPath(field, source.block), blocks);
  if (overview !== undefined) return overview;
  const { r0, r1, c0, c1 } = blocks;
  const width = Math.max(0, c1 - c0);
  const out = new Float64Array(width * Math.max(0, r1 - r0));
  if (out.length === 0) return out;
  const perBand = tableBandRows(source, field) / source.block;
  const columns = Math.ceil(source.grid.nx / source.block);
  for (let k = Math.floor(r0 / perBand); k * perBand < r1; k++) {
    const band = await tableBand(source, field, k);
    for (let i = Math.max(r0, k * perBand); i < Math.min(r1, (k + 1) * perBand); i++) {
      const at = (i - k * perBand) * columns;
      out.set(band.subarray(at + c0, at + c1), (i - r0) * width);
    }
  }
  return out;
}

/** Where an annual tile is drawn from: a served precompute's group, its version and the band cache. */
export type AnnualSource = Omit<TableSource, 'grid' | 'block'>;

/**
 * What draws annual tile (z, x, y) of a layer with `fields` over `base.grid`: below `maxzoom`, one block table per
 * field (above); at `maxzoom`, where a block is a cell, the window of cells its blocks cover (annual-windows.ts).
 */
export async function annualTileJob(
  source: AnnualSource, base: Pick<TileJob, 'layer' | 'grid' | 'maxzoom' | 'z' | 'x' | 'y'>, fields: readonly TileField[],
): Promise<TileJob> {
  const { grid, z, x, y, maxzoom } = base;
  const frame = tileBlocks(grid, z, x, y, maxzoom);
  if (z < maxzoom) {
    const tables = { ...source, grid, block: frame.block };
    const values = await Promise.all(fields.map((f) => annualBlockTable(tables, f, frame.blocks)));
    return { ...base, tables: { names: fields.map((f) => f.name), values } };
  }
  const range = frameWindow(frame);
  const windows = await Promise.all(fields.map((f) => source.windows.read(source.group, source.version, f.source as PrecomputeGrid, range)));
  return {
    ...base,
    fields: fields.map((f, i) => ({
      name: f.name, decimals: f.decimals, values: windows[i]!, aggregate: f.aggregate ?? 'mean', row0: range.r0, col0: range.c0, width: range.c1 - range.c0,
    })),
  };
}
