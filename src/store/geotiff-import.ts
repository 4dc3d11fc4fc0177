/**
 * Importing a GeoTIFF into an existing dataset: a static array (`outdoor`, `building_height`; one band) or an hourly
 * field (one band per hour, physical values packed with the field's CF encoding, nodata → fill). The GeoTIFF may
 * cover part of the grid; only the chunks it touches are rewritten, and the whole change commits at once with a new
 * `content_version` (store-update.ts) and an entry in the dataset's `imports` (provenance.ts), so what made the data
 * stays on record: a dataset whose arrays were all imported over the whole grid is no longer the stand-in model's.
 * Any refusal happens before the store is touched.
 */
import { basename } from 'node:path';
import { ValidationError } from '../errors.js';
import { createChunkCodec, type ChunkCodec, type StorageCodecs } from './codecs.js';
import {
  HOURLY_FIELDS, STATIC_ARRAYS, type CfEncoding, type DatasetReader, type HourlyField, type StaticArray,
} from './dataset-types.js';
import type { DatasetImport } from './provenance.js';
import { placeGeoTiff, readWindowRows, type PlacedGeoTiff } from './geotiff-grid.js';
import { beginStoreUpdate, type StoreUpdate } from './store-update.js';
import { openDataset } from './zarr-reader.js';
import { hourlyChunkKey, staticChunkKey, type ZarrayMeta } from './zarr-metadata.js';

/** What to import. */
export interface GeoTiffImportParams {
  /** The dataset directory (a Zarr group). */
  readonly dataDir: string;
  /** The GeoTIFF file. */
  readonly input: string;
  /** The array to replace (within the GeoTIFF's extent). */
  readonly array: StaticArray | HourlyField;
  /** Required for hourly fields: band i (0-based) is hour i of the reference year; the band count must equal the hours. */
  readonly bandHours?: boolean;
  /** What the imported data are (a model run, a survey), recorded in `imports`; default: the GeoTIFF's file name. */
  readonly source?: string;
}

/** What an import changed. */
export interface GeoTiffImportResult {
  readonly array: StaticArray | HourlyField;
  readonly chunks: number;
  readonly window: PlacedGeoTiff['window'];
  readonly contentVersion: string;
  /** Levels of the stored aggregates the import made stale and dropped (write them again: `svc data aggregate`). */
  readonly aggregateLevels: readonly number[];
}

const isNoData = (v: number, noData: number | undefined) => Number.isNaN(v) || v === noData;

async function codecOf(update: StoreUpdate, name: string, elementSize: number): Promise<{ codec: ChunkCodec; chunks: number[] }> {
  const meta = update.metadata[`${name}/.zarray`] as ZarrayMeta;
  return { codec: await createChunkCodec(meta as StorageCodecs, elementSize), chunks: [...meta.chunks] };
}

/**
 * A static array, one band of chunk rows at a time: the GeoTIFF rows of that band are read and checked, and each
 * chunk they touch is built from the stored array with those rows laid over it. Memory holds the stored array (the
 * reader keeps static arrays whole) and one band of GeoTIFF rows, never a second copy of the grid.
 */
async function importStatic(reader: DatasetReader, placed: PlacedGeoTiff, name: StaticArray, update: StoreUpdate): Promise<number> {
  if (placed.bands !== 1) throw new ValidationError(`A static array takes a one-band GeoTIFF; this one has ${placed.bands} bands.`);
  const { row0, col0, rows, cols } = placed.window;
  const { nx, ny } = reader.grid;
  const stored = name === 'outdoor' ? await reader.readStatic('outdoor') : await reader.readStatic('building_height');
  const elementSize = name === 'outdoor' ? 1 : 4;
  const { codec, chunks: [cr, cc] } = await codecOf(update, name, elementSize);
  let written = 0;
  for (let i = Math.floor(row0 / cr); i * cr < row0 + rows; i++) {
    const r0 = Math.max(row0, i * cr);
    const r1 = Math.min(row0 + rows, (i + 1) * cr);
    const [values] = await readWindowRows(placed, r0, r1, 0, 1);
    for (let r = r0; r < r1; r++) {
      for (let c = 0; c < cols; c++) {
        const v = values[(r - r0) * cols + c];
        const ok = name === 'outdoor' ? v === 0 || v === 1 : v >= 0 && v < 1000;
        if (!ok || isNoData(v, placed.noData)) {
          throw new ValidationError(`${name} value ${v} at GeoTIFF row ${r - row0}, column ${c} is invalid (${name === 'outdoor' ? '0 or 1' : '0 <= h < 1000 m'}; no nodata).`);
        }
      }
    }
    for (let j = Math.floor(col0 / cc); j * cc < col0 + cols; j++) {
      const block = name === 'outdoor' ? new Uint8Array(cr * cc) : new Float32Array(cr * cc);
      for (let r = 0; r < cr && i * cr + r < ny; r++) {
        const y = i * cr + r;
        const from = y * nx + j * cc;
        const width = Math.min(cc, nx - j * cc);
        block.set(stored.subarray(from, from + width), r * cc);
        if (y < r0 || y >= r1) continue;
        for (let x = Math.max(col0, j * cc); x < Math.min(col0 + cols, j * cc + width); x++) {
          block[r * cc + x - j * cc] = values[(y - r0) * cols + x - col0];
        }
      }
      await update.stage(staticChunkKey(name, i, j), await codec.encode(new Uint8Array(block.buffer)));
      written++;
    }
  }
  return written;
}

function pack(v: number, enc: CfEncoding, noData: number | undefined, where: () => string): number {
  if (isNoData(v, noData)) return enc._FillValue;
  const raw = Math.round((v - enc.add_offset) / enc.scale_factor);
  if (!(raw >= -32767 && raw <= 32767) || raw === enc._FillValue) {
    throw new ValidationError(`Value ${v} at ${where()} does not fit the int16 packing (scale ${enc.scale_factor}, offset ${enc.add_offset}).`);
  }
  return raw;
}

async function importHourly(reader: DatasetReader, placed: PlacedGeoTiff, field: HourlyField, update: StoreUpdate, bandHours: boolean): Promise<number> {
  if (!bandHours) throw new ValidationError(`Importing hourly field '${field}' needs --band-hours (one band per hour).`);
  if (placed.bands !== reader.hours) {
    throw new ValidationError(`GeoTIFF has ${placed.bands} bands; '${field}' needs one per hour, ${reader.hours}.`);
  }
  const { row0, col0, rows, cols } = placed.window;
  const { rows: R, cols: C, hours } = reader.chunk;
  const enc = reader.encoding(field);
  const { codec } = await codecOf(update, field, 2);
  let written = 0;
  for (let cr = Math.floor(row0 / R); cr * R < row0 + rows; cr++) {
    const r0 = Math.max(row0, cr * R);
    const r1 = Math.min(row0 + rows, (cr + 1) * R);
    const bands = await readWindowRows(placed, r0, r1, 0, hours);
    for (let cc = Math.floor(col0 / C); cc * C < col0 + cols; cc++) {
      const c0 = Math.max(col0, cc * C);
      const c1 = Math.min(col0 + cols, (cc + 1) * C);
      const covered = r1 - r0 === Math.min(R, reader.grid.ny - cr * R) && c1 - c0 === Math.min(C, reader.grid.nx - cc * C);
      const chunk = covered ? new Int16Array(hours * R * C).fill(enc._FillValue) : (await reader.readChunk(field, cr, cc)).slice();
      for (let t = 0; t < hours; t++) {
        const band = bands[t];
        for (let row = r0; row < r1; row++) {
          for (let col = c0; col < c1; col++) {
            const v = band[(row - r0) * cols + (col - col0)];
            chunk[t * R * C + (row - cr * R) * C + (col - cc * C)] = pack(v, enc, placed.noData, () => `band ${t + 1}, dataset row ${row}, column ${col}`);
          }
        }
      }
      await update.stage(hourlyChunkKey(field, cr, cc), await codec.encode(new Uint8Array(chunk.buffer)));
      written++;
    }
  }
  return written;
}

/** Imports a GeoTIFF into a dataset; the store changes only if every check and every chunk write succeeds. */
export async function importGeoTiff(params: GeoTiffImportParams): Promise<GeoTiffImportResult> {
  const { array } = params;
  const isStatic = (STATIC_ARRAYS as readonly string[]).includes(array);
  if (!isStatic && !(HOURLY_FIELDS as readonly string[]).includes(array)) {
    throw new ValidationError(`Unknown array '${array}'; choose one of ${[...STATIC_ARRAYS, ...HOURLY_FIELDS].join(', ')}.`);
  }
  const reader = await openDataset(params.dataDir);
  if (!isStatic && !reader.fields.includes(array as HourlyField)) {
    throw new ValidationError(`Dataset '${reader.attrs.dataset}' has no field '${array}' (fields: ${reader.fields.join(', ')}).`);
  }
  if (isStatic && params.bandHours) throw new ValidationError('--band-hours applies to hourly fields only.');
  const placed = await placeGeoTiff(params.input, reader.grid);
  const update = await beginStoreUpdate(reader.dir);
  try {
    const chunks = isStatic
      ? await importStatic(reader, placed, array as StaticArray, update)
      : await importHourly(reader, placed, array as HourlyField, update, params.bandHours === true);
    const { window } = placed;
    const record: DatasetImport = {
      array,
      source: params.source?.trim() || basename(params.input),
      imported_utc: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      whole_grid: window.rows === reader.grid.ny && window.cols === reader.grid.nx,
    };
    const imports = [...(reader.attrs.imports ?? []), record];
    const contentVersion = await update.commit(`import-geotiff ${array} from ${params.input}`, { imports });
    return { array, chunks, window: placed.window, contentVersion, aggregateLevels: update.aggregateLevels };
  } catch (err) {
    await update.abort();
    throw err;
  }
}
