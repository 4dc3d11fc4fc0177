/**
 * The Zarr v2 metadata of a dataset (docs/datasets.md): `.zarray`/`.zattrs` of every array, the group attributes and
 * the consolidated `.zmetadata`. Pure functions of the spec, so the writer, a worker's chunk sink and the GeoTIFF
 * import agree on every key.
 */
import type { CodecConfig, StorageCodecs } from './codecs.js';
import { LAMBERT72_GRID_MAPPING } from './crs.js';
import {
  FIELD_ENCODINGS, type DatasetAttrs, type DatasetSpec, type HourlyField, type StaticArray,
} from './dataset-types.js';

/** Chunk keys use nested directories (`no2/0/12/7`), so no directory holds more than one row of chunks. */
export const DIMENSION_SEPARATOR = '/';

/** CF conventions version written into the group attributes. */
const CONVENTIONS = 'CF-1.8';

/**
 * Default chunk codecs, chosen by `npm run bench -- data` on real-shaped data (docs/benchmarks.md): byte shuffle then
 * zstd's fast level −3, decoded natively straight into kernel memory — the lowest cost of reading and decoding a
 * chunk truly cold among codecs that keep the data at most half their raw size. Python's numcodecs reads both.
 */
export const DEFAULT_STORAGE_CODECS: StorageCodecs = Object.freeze({
  filters: Object.freeze([Object.freeze({ id: 'shuffle', elementsize: 2 })]),
  compressor: Object.freeze({ id: 'zstd', level: -3 }),
});

/** Contents of a v2 `.zarray` file. */
export interface ZarrayMeta {
  readonly zarr_format: 2;
  readonly shape: readonly number[];
  readonly chunks: readonly number[];
  readonly dtype: string;
  readonly compressor: CodecConfig | null;
  readonly filters: readonly CodecConfig[] | null;
  readonly fill_value: number | null;
  readonly order: 'C';
  readonly dimension_separator: typeof DIMENSION_SEPARATOR;
}

/** One array: its metadata and attributes (with `_ARRAY_DIMENSIONS`). */
export interface ArrayMeta {
  readonly zarray: ZarrayMeta;
  readonly zattrs: Readonly<Record<string, unknown>>;
}

/** Names of the coordinate and grid-mapping arrays. */
const COORDINATE_ARRAYS = ['time', 'y', 'x', 'crs'] as const;

/** Chunk shape of the static arrays: blocks of at most 512 x 512 cells. */
export function staticChunkShape(spec: DatasetSpec): [number, number] {
  return [Math.min(spec.grid.ny, 512), Math.min(spec.grid.nx, 512)];
}

/**
 * The codecs for an array of `elementSize`-byte elements: a shuffle filter takes that size and is dropped for bytes;
 * the int16 delta filter is kept only for 2-byte elements (the hourly fields).
 */
export function codecsForElementSize(codecs: StorageCodecs, elementSize: number): StorageCodecs {
  const filters = (codecs.filters ?? [])
    .map((f) => (f.id === 'shuffle' ? { ...f, elementsize: elementSize } : f))
    .filter((f) => !(f.id === 'shuffle' && elementSize === 1) && !(f.id === 'delta' && elementSize !== 2));
  return { filters: filters.length > 0 ? filters : null, compressor: codecs.compressor };
}

function zarray(shape: number[], chunks: number[], dtype: string, fill: number | null, codecs: StorageCodecs): ZarrayMeta {
  return {
    zarr_format: 2, shape, chunks, dtype, compressor: codecs.compressor, filters: codecs.filters,
    fill_value: fill, order: 'C', dimension_separator: DIMENSION_SEPARATOR,
  };
}

/** Metadata of an hourly int16 field: dims (time, y, x), one chunk per block of cells over the whole year. */
export function hourlyArrayMeta(spec: DatasetSpec, field: HourlyField, codecs: StorageCodecs): ArrayMeta {
  const enc = FIELD_ENCODINGS[field];
  const shape = [spec.hours, spec.grid.ny, spec.grid.nx];
  const chunks = [spec.chunk.hours, spec.chunk.rows, spec.chunk.cols];
  return {
    zarray: zarray(shape, chunks, '<i2', enc._FillValue, codecsForElementSize(codecs, 2)),
    zattrs: { _ARRAY_DIMENSIONS: ['time', 'y', 'x'], ...enc, grid_mapping: 'crs' },
  };
}

/** Metadata of a static array: `outdoor` uint8 mask or `building_height` float32 metres, dims (y, x). */
export function staticArrayMeta(spec: DatasetSpec, name: StaticArray, codecs: StorageCodecs): ArrayMeta {
  const shape = [spec.grid.ny, spec.grid.nx];
  const chunks = staticChunkShape(spec);
  if (name === 'outdoor') {
    return {
      // No fill value: every chunk is written, and a fill value would make xarray mask and widen the mask to float.
      zarray: zarray(shape, chunks, '|u1', null, codecsForElementSize(codecs, 1)),
      zattrs: {
        _ARRAY_DIMENSIONS: ['y', 'x'], long_name: 'outdoor cell mask', units: '1',
        flag_values: [0, 1], flag_meanings: 'building_interior outdoor', grid_mapping: 'crs',
      },
    };
  }
  return {
    zarray: zarray(shape, chunks, '<f4', null, codecsForElementSize(codecs, 4)),
    zattrs: { _ARRAY_DIMENSIONS: ['y', 'x'], long_name: 'building height', units: 'm', grid_mapping: 'crs' },
  };
}

/** Metadata of the coordinates and the grid-mapping variable; stored uncompressed, one chunk each. */
export function coordinateMeta(spec: DatasetSpec): Record<(typeof COORDINATE_ARRAYS)[number], ArrayMeta> {
  const none: StorageCodecs = { filters: null, compressor: null };
  const { nx, ny } = spec.grid;
  return {
    time: {
      zarray: zarray([spec.hours], [spec.hours], '<i4', null, none),
      zattrs: {
        _ARRAY_DIMENSIONS: ['time'], standard_name: 'time', long_name: 'time (start of the hour, UTC)', axis: 'T',
        units: `hours since ${spec.attrs.reference_year}-01-01 00:00:00`, calendar: 'proleptic_gregorian',
      },
    },
    y: {
      zarray: zarray([ny], [ny], '<f8', null, none),
      zattrs: {
        _ARRAY_DIMENSIONS: ['y'], standard_name: 'projection_y_coordinate', long_name: 'northing of cell centre',
        units: 'm', axis: 'Y',
      },
    },
    x: {
      zarray: zarray([nx], [nx], '<f8', null, none),
      zattrs: {
        _ARRAY_DIMENSIONS: ['x'], standard_name: 'projection_x_coordinate', long_name: 'easting of cell centre',
        units: 'm', axis: 'X',
      },
    },
    crs: { zarray: zarray([], [], '<i4', null, none), zattrs: { _ARRAY_DIMENSIONS: [], ...LAMBERT72_GRID_MAPPING } },
  };
}

/** Coordinate values as little-endian chunk bytes, keyed by chunk key. */
export function coordinateChunks(spec: DatasetSpec): Map<string, Uint8Array> {
  const { nx, ny, x0, y0, resolution_m: res } = spec.grid;
  const time = Int32Array.from({ length: spec.hours }, (_, t) => t);
  const x = Float64Array.from({ length: nx }, (_, c) => x0 + c * res);
  const y = Float64Array.from({ length: ny }, (_, r) => y0 - r * res);
  const crs = new Int32Array([0]);
  const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  return new Map([['time/0', bytes(time)], ['x/0', bytes(x)], ['y/0', bytes(y)], ['crs/0', bytes(crs)]]);
}

/** Group attributes as stored: the spec's attributes plus `Conventions`. */
export function groupAttrs(spec: DatasetSpec): DatasetAttrs {
  return { ...spec.attrs, Conventions: CONVENTIONS };
}

/** Key of an hourly chunk (`no2/0/3/5`). */
export function hourlyChunkKey(field: HourlyField, chunkRow: number, chunkCol: number): string {
  return `${field}/0/${chunkRow}/${chunkCol}`;
}

/** Key of a static-array chunk (`outdoor/1/0`). */
export function staticChunkKey(name: StaticArray, chunkRow: number, chunkCol: number): string {
  return `${name}/${chunkRow}/${chunkCol}`;
}

/** The consolidated-metadata document (`.zmetadata`) of the given metadata files, keyed by store path. */
export function consolidate(files: Readonly<Record<string, unknown>>): object {
  return { metadata: { ...files }, zarr_consolidated_format: 1 };
}
