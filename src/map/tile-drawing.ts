/**
 * Drawing one vector tile from grid data: the pure function behind the `map-tile` compute task (it runs in a compute
 * thread; src/map/tile-renderer.ts chooses where). Slices arrive as views of SharedArrayBuffers, so posting a job to
 * a thread copies no grid data; the grid's corner lattice is projected once per grid and thread and kept. The task
 * also gzips the tile there, once, so the server can send either form from its cache without compressing per request.
 */
import { gzipSync } from 'node:zlib';
import type { GridGeometry } from '../store/dataset-types.js';
import { addBuildingFeatures, type BuildingArrays } from './building-features.js';
import { addTableFeatures, blockTable, type FieldSlice } from './cell-features.js';
import { cornerLattice, type CornerLattice } from './grid-projection.js';
import { mapLayer, type TileLayer } from './map-layers.js';
import { encodeTile, MvtLayer } from './mvt-encoder.js';
import { tileFrame, type TileFrame } from './tile-frame.js';

/** Everything needed to draw tile (z, x, y) of one layer. */
export interface TileJob {
  readonly layer: TileLayer;
  readonly grid: GridGeometry;
  /** The zoom at which cells are published one by one. */
  readonly maxzoom: number;
  readonly z: number;
  readonly x: number;
  readonly y: number;
  /** Timed and annual layers: one slice per tile field the dataset holds, in the layer's field order. */
  readonly fields?: readonly FieldSlice[];
  /**
   * A value layer drawn from the published values of its blocks instead (the annual layers below their deepest zoom:
   * annual-tables.ts): one `blockTable` of the tile's frame per field, named `names`, in the layer's field order.
   */
  readonly tables?: { readonly names: readonly string[]; readonly values: readonly Float64Array[] };
  /** The buildings layer: the static arrays. */
  readonly buildings?: BuildingArrays;
}

/** Grids whose corner lattice is kept per thread (a service has one or two map grids). */
const MAX_GRIDS = 4;
const latticeByGrid = new Map<string, CornerLattice>();

/** The corner lattice of `grid`, projected once per thread. */
function latticeOf(grid: GridGeometry): CornerLattice {
  const key = `${grid.crs_epsg}|${grid.resolution_m}|${grid.nx}|${grid.ny}|${grid.x0}|${grid.y0}`;
  let lattice = latticeByGrid.get(key);
  if (lattice === undefined) {
    lattice = cornerLattice(grid);
    if (latticeByGrid.size >= MAX_GRIDS) latticeByGrid.delete(latticeByGrid.keys().next().value!);
    latticeByGrid.set(key, lattice);
  }
  return lattice;
}

/** The frame of the job's tile: its box, blocks and their corners. */
function jobFrame(job: Pick<TileJob, 'grid' | 'z' | 'x' | 'y' | 'maxzoom'>): TileFrame {
  return tileFrame(latticeOf(job.grid), job.z, job.x, job.y, job.maxzoom);
}

/**
 * The encoded tile of a value layer from the published values of its blocks (cell-features.ts `blockTable`, one per
 * field the dataset holds, in the layer's field order, named `names`); zero bytes when it holds no feature.
 */
function renderTableTile(layerId: TileLayer, frame: TileFrame, names: readonly string[], tables: readonly Float64Array[]): Uint8Array {
  const def = mapLayer(layerId);
  if (def === undefined || def.kind === 'static') throw new Error(`No value layer '${layerId}'.`);
  const layer = new MvtLayer(def.sourceLayer, names);
  if (tables.length > 0) addTableFeatures(layer, frame, tables);
  return encodeTile([layer]);
}

/** The encoded tile (MVT 2.1, one layer); zero bytes when the tile holds no feature. */
export function renderTile(job: TileJob): Uint8Array {
  const def = mapLayer(job.layer);
  if (def === undefined) throw new Error(`No map layer '${job.layer}'.`);
  const frame = jobFrame(job);
  if (def.kind === 'static') {
    if (job.buildings === undefined) throw new Error('A buildings tile needs the outdoor mask and heights.');
    const layer = new MvtLayer(def.sourceLayer, [def.fields[0].name]);
    addBuildingFeatures(layer, frame, job.buildings, def.fields[0].decimals);
    return encodeTile([layer]);
  }
  if (job.tables !== undefined) return renderTableTile(job.layer, frame, job.tables.names, job.tables.values);
  const fields = job.fields ?? [];
  return renderTableTile(job.layer, frame, fields.map((f) => f.name), fields.map((f) => blockTable(frame, f)));
}

/** A tile as served: its bytes (empty for an empty tile) and, when that is smaller, the same bytes gzipped. */
export interface EncodedTile {
  readonly raw: Uint8Array;
  readonly gzip?: Uint8Array;
}

/** Draws the tile and gzips it (level 6); the gzipped form is kept only when it is smaller (not for tiny tiles). */
export function renderEncodedTile(job: TileJob): EncodedTile {
  const raw = renderTile(job);
  if (raw.byteLength === 0) return { raw };
  const gzip = new Uint8Array(gzipSync(raw, { level: 6 }));
  return gzip.byteLength < raw.byteLength ? { raw, gzip } : { raw };
}
