/**
 * `<city>-annual.pmtiles`: the annual map layers of a city as one PMTiles v3 archive for static hosting. Every tile
 * the service would serve for the annual layers, at every zoom of the tileset, holds the three layers (`annual_air`,
 * `annual_wind`, `annual_thermal`, each only where the city offers its metric) in one MVT: each layer's bytes are
 * exactly the tile the service draws for it (map/tile-drawing.ts, the same function), so a client sees the same
 * features offline. Tiles are gzipped; tiles with no feature are left out. The metadata is the TileJSON a client
 * needs (vector layers with fields, zooms, bounds) and the figures with their legends, as the service publishes them,
 * with the attribution and `provenance` of the dataset (what made it, from its own attributes).
 *
 * Streaming: tiles are drawn one tile row at a time from the band of precomputed rows that tile row's blocks cover,
 * read one field at a time: each field's band gives the published values of every block of the row's tiles
 * (cell-features.ts `blockTable`, the function the service's tiles use), then is dropped; the features are built from
 * those tables, and the tiles go to the archive writer, which spools them to disk. So memory holds one field over one
 * band of tiles (at the coarsest zoom at most 1,024 rows and a margin: web-mercator-tiles.ts MAX_TILE_SPAN_CELLS)
 * and the tables (a few thousand values per tile and field), never a whole grid.
 */
import { gzipSync } from 'node:zlib';
import type { CityConfig } from '../cities/city-types.js';
import { ANNUAL_LAYERS, liveLayerOf } from '../map/annual-layers.js';
import { blockTable } from '../map/cell-features.js';
import { gridFootprint } from '../map/grid-projection.js';
import { dataAttribution } from '../map/data-attribution.js';
import { fieldDescriptions, type MapLayerDef } from '../map/map-layers.js';
import { frameRows, tileBlocks } from '../map/tile-frame.js';
import { jobFrame, renderTableTile } from '../map/tile-drawing.js';
import { figureEntries } from '../map/tilejson.js';
import { tilesCovering } from '../map/web-mercator-tiles.js';
import type { GridGeometry } from '../store/dataset-types.js';
import type { GridGroup } from '../store/grid-group-reader.js';
import { createPmtilesWriter } from '../store/pmtiles-writer.js';
import type { DatasetProvenance } from '../store/provenance.js';

/** What the archive is made of. */
export interface AnnualArchiveParts {
  readonly city: CityConfig;
  readonly grid: GridGeometry;
  readonly group: GridGroup;
  readonly referenceYear: number;
  readonly provenance: DatasetProvenance;
}

/** What was written: the archive's size and how many tiles it holds. */
export interface AnnualArchive {
  readonly bytes: number;
  readonly tiles: number;
  readonly minZoom: number;
  readonly maxZoom: number;
}

/** The annual layers the city offers (those of the live layers it lists). */
export function offeredAnnualLayers(city: CityConfig): MapLayerDef[] {
  return Object.values(ANNUAL_LAYERS).filter((def) => city.map?.layers.includes(liveLayerOf(def)) ?? false);
}

/** Writes the archive of the annual layers of `parts.city`, drawn from its precomputed grids, to `path`. */
export async function writeAnnualArchive(path: string, parts: AnnualArchiveParts): Promise<AnnualArchive> {
  const { city, grid, group } = parts;
  const layers = offeredAnnualLayers(city);
  const { zooms, box, bounds, centre } = gridFootprint(grid);
  const writer = await createPmtilesWriter(path);
  try {
    for (let z = zooms.minzoom; z <= zooms.maxzoom; z++) {
      const range = tilesCovering(box, z);
      for (let y = range.y0; y <= range.y1; y++) {
        // The band of rows this tile row draws from: the union of its tiles' block rows.
        let r0 = grid.ny;
        let r1 = 0;
        for (let x = range.x0; x <= range.x1; x++) {
          const rows = frameRows(tileBlocks(grid, z, x, y, zooms.maxzoom));
          if (rows.r1 > rows.r0) [r0, r1] = [Math.min(r0, rows.r0), Math.max(r1, rows.r1)];
        }
        if (r1 <= r0) continue;
        const frames = Array.from({ length: range.x1 - range.x0 + 1 }, (_, k) => jobFrame({ grid, maxzoom: zooms.maxzoom, z, x: range.x0 + k, y }));
        const drawn: Uint8Array[][] = frames.map(() => []);
        for (const layer of layers) {
          const tables: Float64Array[][] = frames.map(() => []);
          for (const f of layer.fields) {
            const slice = { name: f.name, decimals: f.decimals, values: await group.readRows(f.source, r0, r1), aggregate: f.aggregate ?? 'mean', row0: r0 };
            frames.forEach((frame, k) => tables[k]!.push(blockTable(frame, slice)));
          }
          const names = layer.fields.map((f) => f.name);
          frames.forEach((frame, k) => drawn[k]!.push(renderTableTile(layer.id, frame, names, tables[k]!)));
        }
        for (let x = range.x0; x <= range.x1; x++) {
          // An MVT is a sequence of layers: single-layer tiles concatenated are one tile holding them all.
          const mvt = Buffer.concat(drawn[x - range.x0]!);
          if (mvt.byteLength > 0) await writer.add({ z, x, y, data: new Uint8Array(gzipSync(mvt, { level: 9 })) });
        }
      }
    }
    const metadata = {
      name: `${city.name} annual layers ${parts.referenceYear}`,
      description: `Annual air quality, wind comfort and thermal comfort of every outdoor cell of ${city.name}, reference year ${parts.referenceYear}. ${parts.provenance.label}`,
      attribution: dataAttribution(city, parts.provenance.label),
      provenance: parts.provenance,
      type: 'overlay',
      version: '1.0.0',
      format: 'pbf',
      minzoom: zooms.minzoom,
      maxzoom: zooms.maxzoom,
      bounds,
      center: [centre[0], centre[1], Math.min(zooms.maxzoom, zooms.minzoom + 2)],
      vector_layers: layers.map((layer) => ({
        id: layer.sourceLayer, description: layer.description, minzoom: zooms.minzoom, maxzoom: zooms.maxzoom, fields: fieldDescriptions(layer),
      })),
      figures: Object.fromEntries(layers.map((layer) => [layer.sourceLayer, figureEntries(layer)])),
    };
    const bytes = await writer.finish(metadata, {
      tileCompression: 2, tileType: 1, minZoom: zooms.minzoom, maxZoom: zooms.maxzoom,
      bounds: [bounds[0], bounds[1], bounds[2], bounds[3]],
      center: [centre[0], centre[1], Math.min(zooms.maxzoom, zooms.minzoom + 2)],
    });
    return { bytes, tiles: writer.tiles, minZoom: zooms.minzoom, maxZoom: zooms.maxzoom };
  } finally {
    await writer.close();
  }
}
