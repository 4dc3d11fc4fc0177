/**
 * `<city>-annual.pmtiles`: the annual map layers of a city as one PMTiles v3 archive for static hosting. Every tile
 * the service would serve for the annual layers, at every zoom of the tileset, holds the three layers (`annual_air`,
 * `annual_wind`, `annual_thermal`, each only where the city offers its metric) in one MVT: each layer's bytes are
 * exactly the tile the service draws for it (map/tile-drawing.ts, the same function), so a client sees the same
 * features offline. Tiles are gzipped; tiles with no feature are left out. The metadata is the TileJSON a client
 * needs (vector layers with fields, zooms, bounds) and the figures with their legends, as the service publishes them,
 * with the attribution and `provenance` of the dataset (what made it, from its own attributes).
 *
 * Streaming: each tile is drawn as the service draws it (map/annual-tables.ts `annualTileJob`, then
 * map/tile-drawing.ts `renderTile`): below the deepest zoom from the window of its blocks in the precompute's
 * overviews, at it from the window of cells its blocks cover, both read from the precompute's square chunks through a
 * small byte-bounded cache (ARCHIVE_CACHE_BYTES, so the tiles of a row share the chunks they straddle). So memory
 * holds a tile's windows and that cache, whatever the grid's width or area, and the archive writer spools the tiles
 * to disk. A precompute written before overviews is drawn through the same path, folding bands (slower, not larger).
 */
import { gzipSync } from 'node:zlib';
import type { CityConfig } from '../cities/city-types.js';
import { ANNUAL_LAYERS, liveLayerOf } from '../map/annual-layers.js';
import { gridFootprint } from '../map/grid-projection.js';
import { dataAttribution } from '../map/data-attribution.js';
import { fieldDescriptions, type MapLayerDef } from '../map/map-layers.js';
import { annualTileJob } from '../map/annual-tables.js';
import { AnnualWindows } from '../map/annual-windows.js';
import { renderTile } from '../map/tile-drawing.js';
import { figureEntries } from '../map/tilejson.js';
import { tilesCovering } from '../map/web-mercator-tiles.js';
import type { GridGeometry } from '../store/dataset-types.js';
import type { GridGroup } from '../store/grid-group-reader.js';
import { createPmtilesWriter } from '../store/pmtiles-writer.js';
import type { DatasetProvenance } from '../store/provenance.js';

/**
 * What the chunks and windows an archive's tiles read may hold: a row of tiles at the deepest zoom straddles a row or
 * two of 64 × 64 chunks of each of its 31 figures (16 KiB a chunk), so the chunks of a few tiles' width stay while
 * the row is drawn; a wider grid decodes some chunks again rather than holding more.
 */
const ARCHIVE_CACHE_BYTES = 8 * 1024 * 1024;

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
  const source = { windows: new AnnualWindows(ARCHIVE_CACHE_BYTES), group, version: 'archive' };
  try {
    for (let z = zooms.minzoom; z <= zooms.maxzoom; z++) {
      const range = tilesCovering(box, z);
      for (let y = range.y0; y <= range.y1; y++) {
        for (let x = range.x0; x <= range.x1; x++) {
          const base = { grid, maxzoom: zooms.maxzoom, z, x, y };
          const drawn: Uint8Array[] = [];
          for (const layer of layers) drawn.push(renderTile(await annualTileJob(source, { ...base, layer: layer.id }, layer.fields)));
          // An MVT is a sequence of layers: single-layer tiles concatenated are one tile holding them all.
          const mvt = Buffer.concat(drawn);
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
