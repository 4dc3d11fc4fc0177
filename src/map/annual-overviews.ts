/**
 * Overviews of the annual layers, written by the precompute beside its grids (as a COG keeps overviews): for each
 * figure an annual tile draws and each block size its zooms below the deepest publish (2, 4, … cells a side), the
 * published value of every block of the grid (cell-features.ts `blockTable`), float64, in chunks of 64 × 64 blocks.
 * A tile below the deepest zoom then reads the few chunks of its own blocks (annual-tables.ts) instead of folding
 * bands of cells across the grid's width, so its cost does not grow with the city's extent.
 *
 * The values are `blockTable`'s own, computed over the rows of whole block rows as the precompute's bands pass (rows
 * of a block row split across two bands are carried to the next), so a tile drawn from an overview is byte for byte
 * the tile drawn from the whole grids. An overview is keyed by everything its values depend on: the grid, the
 * aggregate (mean or mode), the decimals and the block size; a tile whose field or zoom has none falls back to
 * folding bands (a precompute written before overviews, or a zoom policy that changed since).
 */
import type { GridGeometry } from '../store/dataset-types.js';
import type { DerivedArrays, DerivedArraySpec } from '../store/grid-group-writer.js';
import { ANNUAL_LAYERS } from './annual-layers.js';
import { blockTable } from './cell-features.js';
import { gridFootprint } from './grid-projection.js';
import type { TileField } from './map-layers.js';

/** Blocks a side of an overview's chunks. */
const OVERVIEW_CHUNK = 64;

/** The group the overviews lie in. */
const OVERVIEW_GROUP = 'overviews';

/** What an overview's values depend on besides the block size. */
export type OverviewField = Pick<TileField, 'source' | 'decimals' | 'aggregate'>;

/** The path of the overview of `field` at blocks of `block` cells a side. */
export function overviewPath(field: OverviewField, block: number): string {
  return `${OVERVIEW_GROUP}/${block}/${field.source}.${field.aggregate ?? 'mean'}.${field.decimals}`;
}

/** Every distinct field the annual layers draw (a grid drawn by two layers alike is written once). */
function overviewFields(): OverviewField[] {
  const fields = new Map<string, OverviewField>();
  for (const layer of Object.values(ANNUAL_LAYERS)) {
    for (const f of layer.fields) fields.set(overviewPath(f, 1), { source: f.source, decimals: f.decimals, aggregate: f.aggregate ?? 'mean' });
  }
  return [...fields.values()];
}

/** The block sizes the map publishes below its deepest zoom over `grid`: 2, 4, … 2^(maxzoom − minzoom). */
function overviewBlocks(grid: GridGeometry): number[] {
  const { minzoom, maxzoom } = gridFootprint(grid).zooms;
  return Array.from({ length: maxzoom - minzoom }, (_, k) => 2 ** (k + 1));
}

/** One overview being made: its field, block size and the rows of an unfinished block row carried between bands. */
interface Pending {
  readonly field: OverviewField;
  readonly grid: number;
  readonly block: number;
  readonly spec: DerivedArraySpec;
  /** Grid rows carried (a block row's first rows), from row `carryRow`. */
  carry: Float32Array;
  carryRow: number;
}

/**
 * The overviews of the annual layers over `grid`, made from the precompute's grids `names` (in the order of the grid
 * group's specs) as their bands pass; only fields whose grid is among them.
 */
export function annualOverviews(grid: GridGeometry, names: readonly string[]): DerivedArrays {
  const { nx, ny } = grid;
  const pending: Pending[] = [];
  const blocks = overviewBlocks(grid);
  for (const field of overviewFields()) {
    const index = names.indexOf(field.source);
    if (index < 0) continue;
    for (const block of blocks) {
      const rows = Math.ceil(ny / block);
      const cols = Math.ceil(nx / block);
      const spec = {
        path: overviewPath(field, block), grid: index, rows, cols,
        chunkRows: Math.min(rows, OVERVIEW_CHUNK), chunkCols: Math.min(cols, OVERVIEW_CHUNK),
        attrs: { _ARRAY_DIMENSIONS: [`y_${block}`, `x_${block}`], block_cells: block, aggregate: field.aggregate, decimals: field.decimals, grid: field.source },
      };
      pending.push({ field, grid: index, block, spec, carry: new Float32Array(0), carryRow: 0 });
    }
  }
  return {
    arrays: pending.map((p) => p.spec),
    groups: [OVERVIEW_GROUP, ...blocks.map((b) => `${OVERVIEW_GROUP}/${b}`)],
    take(r0, r1, k, band) {
      return pending.filter((p) => p.grid === k).map((p) => {
        // The carried rows and this band, contiguous from the carry's first row (the band itself when nothing is carried).
        const from = p.carry.length > 0 ? p.carryRow : r0;
        let values = band;
        if (p.carry.length > 0) {
          values = new Float32Array(p.carry.length + band.length);
          values.set(p.carry);
          values.set(band, p.carry.length);
        }
        const i0 = from / p.block;
        const i1 = r1 === ny ? Math.ceil(ny / p.block) : Math.floor(r1 / p.block);
        const keep = i1 * p.block;
        p.carry = keep < r1 ? values.slice((keep - from) * nx) : new Float32Array(0);
        p.carryRow = keep;
        const { aggregate = 'mean', decimals, source } = p.field;
        return blockTable(
          { grid, block: p.block, blocks: { r0: i0, r1: i1, c0: 0, c1: Math.ceil(nx / p.block) } },
          { name: source, decimals, aggregate, values, row0: from, col0: 0, width: nx },
        );
      });
    },
  };
}
