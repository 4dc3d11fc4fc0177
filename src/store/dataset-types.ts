/**
 * Shapes shared by the dataset writer, the reader, the generator and the compute layer. The on-disk format they describe
 * is documented in docs/datasets.md.
 */
import type { AggregateSection } from './aggregate-files.js';
import type { StorageCodecs } from './codecs.js';
import type { ProvenanceAttrs } from './provenance.js';

/** Hourly fields a dataset may hold. A dataset holds only the fields it models. */
export const HOURLY_FIELDS = ['no2', 'pm25', 'pm10', 'ucomfort', 'ugust', 'utci'] as const;
export type HourlyField = (typeof HOURLY_FIELDS)[number];

/** Static (time-independent) arrays every dataset holds. */
export const STATIC_ARRAYS = ['outdoor', 'building_height'] as const;
export type StaticArray = (typeof STATIC_ARRAYS)[number];

/**
 * CF packing of an int16 array: physical = raw * scale_factor + add_offset; raw === fill means missing.
 * Chosen per field in `FIELD_ENCODINGS`.
 */
export interface CfEncoding {
  readonly scale_factor: number;
  readonly add_offset: number;
  readonly _FillValue: number;
  readonly units: string;
  readonly long_name: string;
}

/** The encoding of every hourly field. Resolution: 0.1 µg/m3 for concentrations, 0.01 for speeds and UTCI. */
export const FIELD_ENCODINGS: Readonly<Record<HourlyField, CfEncoding>> = Object.freeze({
  no2: { scale_factor: 0.1, add_offset: 0, _FillValue: -32768, units: 'ug m-3', long_name: 'NO2 concentration' },
  pm25: { scale_factor: 0.1, add_offset: 0, _FillValue: -32768, units: 'ug m-3', long_name: 'PM2.5 concentration' },
  pm10: { scale_factor: 0.1, add_offset: 0, _FillValue: -32768, units: 'ug m-3', long_name: 'PM10 concentration' },
  ucomfort: {
    scale_factor: 0.01, add_offset: 0, _FillValue: -32768, units: 'm s-1',
    long_name: 'pedestrian-level mean comfort wind speed',
  },
  ugust: { scale_factor: 0.01, add_offset: 0, _FillValue: -32768, units: 'm s-1', long_name: 'pedestrian-level gust speed' },
  utci: {
    scale_factor: 0.01, add_offset: 0, _FillValue: -32768, units: 'degC',
    long_name: 'Universal Thermal Climate Index',
  },
});

/**
 * Regular grid in a projected CRS (EPSG:31370 for every dataset here), north-up.
 * Cell (row, col) has its centre at x = x0 + col * resolution_m, y = y0 - row * resolution_m;
 * row 0 is the northernmost row. Flat cell index = row * nx + col.
 */
export interface GridGeometry {
  readonly crs_epsg: number;
  readonly resolution_m: number;
  readonly nx: number;
  readonly ny: number;
  /** Centre of the top-left cell, metres. */
  readonly x0: number;
  readonly y0: number;
}

/** Group attributes of a dataset (the `.zattrs` of the root group), with what made it (provenance.ts). */
export interface DatasetAttrs extends ProvenanceAttrs {
  /** Dataset id: `brussels_extended`, `belgium_lowres`, `bench_1m`, ... */
  readonly dataset: string;
  readonly title: string;
  readonly crs_epsg: number;
  readonly crs_proj4: string;
  readonly resolution_m: number;
  readonly reference_year: number;
  /** IANA time zone used for local calendars (months, seasons, day and night). */
  readonly timezone: string;
  readonly generated_utc: string;
  /** Content version; part of every cache key, changes whenever the data changes. */
  readonly content_version: string;
  /** Hourly fields present, in canonical order. */
  readonly fields: readonly HourlyField[];
  /** The data's own attribution text. */
  readonly attribution: string;
  readonly Conventions: string;
}

/** Chunk shape of the hourly arrays: whole time axis by a small block of cells. */
export interface ChunkShape {
  readonly hours: number;
  readonly rows: number;
  readonly cols: number;
}

/** Everything needed to create a dataset before its chunks are written. */
export interface DatasetSpec {
  readonly attrs: Omit<DatasetAttrs, 'Conventions'>;
  readonly grid: GridGeometry;
  readonly hours: number;
  readonly chunk: ChunkShape;
}

/**
 * Hourly values of some cells, gathered from whole chunks: for each field, `raw[field][t * cells.length + i]` is the
 * raw int16 value of cell `cells[i]` at hour t (hour-major, so a statistic over cells at one hour reads contiguously).
 */
export interface CellBlock {
  readonly hours: number;
  /** Flat cell indices (row * nx + col), in the order requested. */
  readonly cells: Int32Array;
  readonly raw: Readonly<Partial<Record<HourlyField, Int16Array>>>;
}

/** Like `CellBlock`, with CF-decoded physical values (NaN where the raw value is the fill value). */
export interface DecodedCellBlock {
  readonly hours: number;
  readonly cells: Int32Array;
  readonly values: Readonly<Partial<Record<HourlyField, Float32Array>>>;
}

/** An open dataset (src/store/zarr-reader.ts); reads whole chunks only. */
export interface DatasetReader {
  readonly dir: string;
  readonly attrs: DatasetAttrs;
  readonly grid: GridGeometry;
  readonly hours: number;
  readonly chunk: ChunkShape;
  /** Hourly fields present, in canonical order. */
  readonly fields: readonly HourlyField[];
  /** A static array, row-major ny x nx; the array is cached and shared: treat it as read-only. */
  readStatic(name: 'outdoor'): Promise<Uint8Array>;
  readStatic(name: 'building_height'): Promise<Float32Array>;
  /**
   * One stored chunk of a static array (`staticChunk` cells, row-major; the last row and column of chunks padded), not
   * cached; a chunk that is missing or does not decode is a `DamagedDataError`.
   */
  readStaticChunk(name: 'outdoor', chunkRow: number, chunkCol: number): Promise<Uint8Array>;
  readStaticChunk(name: 'building_height', chunkRow: number, chunkCol: number): Promise<Float32Array>;
  /** One raw chunk, hour-major (t * rows * cols + r * cols + c); edge chunks are full-size, fill outside the grid. */
  readChunk(field: HourlyField, chunkRow: number, chunkCol: number): Promise<Int16Array>;
  /**
   * The stored (still encoded) bytes of one hourly chunk, checked against the chunk manifest: a missing, truncated or
   * altered chunk is a `DamagedDataError` naming the dataset and the chunk.
   */
  readStoredChunk(field: HourlyField, chunkRow: number, chunkCol: number, options?: StoredReadOptions): Promise<Uint8Array>;
  /** The stored bytes of any file the chunk manifest lists (chunks, aggregates), checked as `readStoredChunk` does. */
  readStored(key: string, options?: StoredReadOptions): Promise<Uint8Array>;
  /** Rows and columns of the static arrays' chunks (`outdoor`, `building_height`). */
  readonly staticChunk: readonly [number, number];
  /** The stored aggregates the manifest lists, if any (store/aggregate-files.ts). */
  readonly aggregates: AggregateSection | undefined;
  /** The CRC-32 the chunk manifest records for a stored file; undefined when it lists none. */
  storedChecksum(key: string): number | undefined;
  /** The CF encoding stored with a field. */
  encoding(field: HourlyField): CfEncoding;
  /** The filters and compressor of a field's chunks (its `.zarray`). */
  codecs(field: HourlyField): StorageCodecs;
  /** Raw hourly values of cells, reading each needed chunk once per field. */
  readCells(fields: readonly HourlyField[], cells: Int32Array): Promise<CellBlock>;
  /** Decoded hourly values of cells (CF decode kernel; NaN for fill). */
  readCellsDecoded(fields: readonly HourlyField[], cells: Int32Array): Promise<DecodedCellBlock>;
}

/** How a stored file is read. */
export interface StoredReadOptions {
  /**
   * Read without blocking even where the reader reads synchronously (`syncReads`), so that several reads can be in
   * flight at once (a compute thread prefetching the chunks of a query).
   */
  readonly concurrent?: boolean;
  /** The buffer to read into (at least `size` bytes); the bytes returned are a view of it (store/manifest-store.ts). */
  readonly buffer?: (size: number) => Uint8Array;
}

/** Dataset ids (and their directory names): lowercase words; siblings such as `<id>.precomputed` are not datasets. */
export function isDatasetId(name: string): boolean {
  return /^[a-z][a-z0-9_]{0,63}$/.test(name);
}
