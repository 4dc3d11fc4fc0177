/**
 * Schemas of the map product (spec: Map catalog, Map layers and tile fields, Tile endpoints): the catalog, TileJSON,
 * the tile paths and their signed query. Bodies are assembled as JSON text by src/map/, so the 200 schemas document
 * the shape rather than serialise it. Path parameters and `exp`/`sig` are plain strings here: the service checks them
 * in its own order (404 for the city and layer, then 401 for the signature, then 404 for the rest), so no schema
 * rule may answer 400 first.
 */
import { Type } from 'typebox';
import { CityRefSchema, nullable } from './common.js';

const signedUrl = (what: string) =>
  Type.String({ pattern: '^/v1/map/', description: `Root-relative URL of the TileJSON of ${what}, signed with exp and sig for the presented key.` });

/** `{min, max}` the relative UTCI scale maps onto at one timestep. */
const RangeSchema = Type.Object(
  {
    min: Type.Number({ description: '2nd percentile of the hour\'s UTCI over every cell with a value, rounded down to 0.1 °C.' }),
    max: Type.Number({ description: '98th percentile, rounded up to 0.1 °C; max − min is at least 1 °C.' }),
  },
  { description: 'Range of the relative scale thermal-utci-relative at this timestep.' },
);

const LayerEntry = (what: string) => Type.Object({ tilejson: signedUrl(what) });

/** The layers of one timestep; a layer is absent when it has no data there or lies outside the key's metric scope. */
const TimestepSchema = Type.Object({
  timestamp: Type.String({ format: 'date-time', description: 'Start of the hour, ISO 8601 UTC.' }),
  timestamp_ms: Type.Integer({ description: 'The same instant, epoch milliseconds: the {timestamp} of tile paths.' }),
  layers: Type.Object({
    thermal: Type.Optional(Type.Object({ tilejson: signedUrl('the thermal layer (source layer UTCI)'), range: Type.Optional(RangeSchema) })),
    wind: Type.Optional(LayerEntry('the wind layer (fields Ucomfort, Ugust)')),
    air: Type.Optional(LayerEntry('the air layer (fields C, C_PM25, C_PM10)')),
  }),
});

/** `GET /v1/map/{city}` 200. */
export const MapCatalogSchema = Type.Object({
  city: CityRefSchema,
  meta: Type.Object({
    crs: Type.Literal('EPSG:3857'),
    tile_format: Type.Literal('mvt', { description: 'Mapbox Vector Tiles 2.1, extent 4096.' }),
    generated_utc: Type.String({ format: 'date-time', description: 'When the catalog was assembled (it is served for catalog_ttl_s).' }),
    catalog_ttl_s: Type.Integer({ description: 'Server-side cache lifetime of the catalog, seconds.' }),
    url_expires_utc: Type.String({ format: 'date-time', description: 'When every signed URL of this answer stops working: at least an hour ahead, rounded up to the hour.' }),
    resolution_m: Type.Optional(Type.Number({ description: 'Grid resolution of the model, metres.' })),
  }),
  static: Type.Object({
    buildings: Type.Optional(LayerEntry('the building footprints (field Height)')),
    annual_air: Type.Optional(LayerEntry('extension: the annual air figures of every cell, from the city\'s precompute (when current; metric air)')),
    annual_wind: Type.Optional(LayerEntry('extension: the annual wind figures of every cell, from the city\'s precompute (when current; metric wind)')),
    annual_thermal: Type.Optional(LayerEntry('extension: the annual thermal figures of every cell, from the city\'s precompute (when current; metric thermal)')),
  }, { description: 'Layers without a time dimension: buildings, and (an extension of the contract) the annual layers of the city atlas where the city\'s precompute is current.' }),
  live: { ...TimestepSchema, description: 'The most recent observed hour; replaced hourly, a few minutes past the hour.' },
  forecast: Type.Array(TimestepSchema, { description: 'Upcoming timesteps in time order; spacing is irregular (hourly, then 3-hourly).' }),
});

/** What made the data (store/provenance.ts), as TileJSON and the atlas files publish it. */
const ProvenanceSchema = Type.Object({
  label: Type.String({ description: 'The sentence shown with the data; the attribution starts with it.' }),
  stand_in: Type.Boolean({ description: 'True while any value is synthetic data of the stand-in model (not every array replaced by a whole-grid import).' }),
  model: nullable(Type.String({ description: 'The model that made the data, from the dataset\'s attributes.' })),
  model_kind: nullable(Type.String({ description: 'stand-in for the seeded synthetic generator; else the dataset\'s own word.' })),
  model_version: nullable(Type.String()),
  seed: nullable(Type.Integer({ description: 'Seed of the stand-in generator.' })),
  source: nullable(Type.String({ description: 'The dataset\'s CF source attribute: how the data were made, in words.' })),
  imports: Type.Array(Type.Object({
    array: Type.String(), source: Type.String(), imported_utc: Type.String(), whole_grid: Type.Boolean(),
  }), { description: 'The GeoTIFF imports (svc data import-geotiff) that replaced data since, oldest first.' }),
  content_version: Type.String(),
  generated_utc: Type.String({ description: 'When the dataset was written.' }),
}, { description: 'Extension: what made the data, read from the dataset\'s own attributes.' });

/** TileJSON 3.0.0 of one tileset. */
export const TileJsonSchema = Type.Object({
  tilejson: Type.Literal('3.0.0'),
  name: Type.String(),
  description: Type.String(),
  version: Type.String(),
  attribution: Type.String(),
  scheme: Type.Literal('xyz'),
  tiles: Type.Array(Type.String({ description: 'Absolute tile URL template carrying the same exp and sig.' }), { minItems: 1, maxItems: 1 }),
  minzoom: Type.Integer(),
  maxzoom: Type.Integer({ description: 'Cells are published one by one from this zoom; clients overzoom beyond it.' }),
  bounds: Type.Array(Type.Number(), { minItems: 4, maxItems: 4, description: '[west, south, east, north] of the grid, degrees.' }),
  center: Type.Array(Type.Number(), { minItems: 3, maxItems: 3 }),
  vector_layers: Type.Array(Type.Object({
    id: Type.String({ description: 'Source-layer name: UTCI, wind, air or buildings.' }),
    description: Type.String(),
    minzoom: Type.Integer(),
    maxzoom: Type.Integer(),
    fields: Type.Record(Type.String(), Type.String(), { description: 'Property name → label (unit): meaning.' }),
  })),
  figures: Type.Optional(Type.Record(Type.String(), Type.Object({
    field: Type.String({ description: 'The statistics-envelope field the property holds, e.g. air.annual_mean_ugm3.no2.' }),
    label: Type.String(),
    unit: Type.String(),
    decimals: Type.Integer(),
    meaning: Type.String(),
    legend: Type.Object({}, {
      additionalProperties: true,
      description: 'What colours the property, in the shape of GET /v1/scales/{scale} (fields names the property); based_on names the existing scale it copies, when it does.',
    }),
  }), { description: 'Extension, annual layers only: per tile property, the figure it holds and its published legend.' })),
  provenance: Type.Optional(ProvenanceSchema),
});

/** `exp` and `sig` as the catalog stamps them. */
export const SignedQuerySchema = Type.Object({
  exp: Type.String({ description: 'Expiry of the URL, epoch seconds (from the catalog).' }),
  sig: Type.String({ description: 'Signature of the URL (from the catalog).' }),
});

const param = (description: string) => Type.String({ description });
const CITY = param('City id with a map, e.g. brussels.');
const TIMED = param('thermal, wind or air.');
const TIMESTAMP = param('timestamp_ms of a live or forecast timestep of the catalog.');
const ZXY = { z: param('Zoom, within the TileJSON minzoom … maxzoom.'), x: param('Tile column (XYZ scheme).'), y: param('Tile row (XYZ scheme, 0 at the north).') };

/** Path parameters of the TileJSON of a live or forecast layer. */
export const TIMED_JSON_PARAMS = Type.Object({ city: CITY, layer: TIMED, timestamp: TIMESTAMP });
/** Path parameters of a tile of a live or forecast layer. */
export const TIMED_TILE_PARAMS = Type.Object({ city: CITY, layer: TIMED, timestamp: TIMESTAMP, ...ZXY });
/** Path parameters of the TileJSON of a static layer. */
export const STATIC_JSON_PARAMS = Type.Object({ city: CITY, static: param('buildings, or an annual layer the catalog lists (annual_air, annual_wind, annual_thermal).') });
/** Path parameters of a tile of a static layer. */
export const STATIC_TILE_PARAMS = Type.Object({ city: CITY, static: param('buildings, or an annual layer the catalog lists (annual_air, annual_wind, annual_thermal).'), ...ZXY });
