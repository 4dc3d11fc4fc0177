/**
 * Opening and validating a dataset's metadata: consolidated metadata, group attributes, arrays, coordinates and
 * encodings. Everything wrong with a store surfaces here as a `DatasetError` that names the store and the problem.
 */
import { readFile, stat } from 'node:fs/promises';
import * as zarr from 'zarrita';
import { DatasetError } from '../errors.js';
import { ChunkFileStore } from './chunk-file-store.js';
import type { CfEncoding, ChunkShape, DatasetAttrs, GridGeometry, HourlyField } from './dataset-types.js';
import { checkAttrs, failDataset } from './spec-check.js';
import { registerNativeCodecs } from './zarrita-codecs.js';

/** A zarrita array of the consolidated filesystem store. */
export type StoreArray = zarr.Array<zarr.DataType, zarr.Readable>;

/** The validated shape of an open store. */
export interface OpenedStore {
  readonly attrs: DatasetAttrs;
  readonly grid: GridGeometry;
  readonly hours: number;
  readonly chunk: ChunkShape;
  readonly fields: ReadonlyMap<HourlyField, { readonly array: StoreArray; readonly encoding: CfEncoding }>;
  readonly outdoor: StoreArray;
  readonly buildingHeight: StoreArray;
}

async function readConsolidated(dir: string): Promise<Record<string, unknown>> {
  const info = await stat(dir).catch(() => undefined);
  if (!info) throw new DatasetError(`Dataset not found: ${dir} does not exist.`);
  if (!info.isDirectory()) throw new DatasetError(`Dataset not found: ${dir} is not a directory.`);
  const bytes = await readFile(`${dir}/.zmetadata`, 'utf8').catch(() => undefined);
  if (bytes === undefined) throw new DatasetError(`${dir} is not a dataset: consolidated metadata (.zmetadata) is missing.`);
  let doc: unknown;
  try {
    doc = JSON.parse(bytes);
  } catch (cause) {
    throw new DatasetError(`${dir}/.zmetadata is corrupt (not JSON).`, { cause });
  }
  const metadata = (doc as { metadata?: unknown } | null)?.metadata;
  if (typeof metadata !== 'object' || metadata === null) throw new DatasetError(`${dir}/.zmetadata has no 'metadata' object.`);
  return metadata as Record<string, unknown>;
}

async function openArray(store: zarr.Readable, dir: string, name: string): Promise<StoreArray> {
  try {
    return await zarr.open.v2(zarr.root(store).resolve(name), { kind: 'array' });
  } catch (cause) {
    throw new DatasetError(`${dir}: array '${name}' is missing or its metadata is invalid.`, { cause });
  }
}

function readEncoding(array: StoreArray, dir: string, field: HourlyField): CfEncoding {
  const a = array.attrs as Record<string, unknown>;
  const scale = a.scale_factor ?? 1;
  const offset = a.add_offset ?? 0;
  const fill = a._FillValue ?? array.fillValue;
  if (typeof scale !== 'number' || typeof offset !== 'number' || typeof fill !== 'number' || !Number.isInteger(fill)) {
    throw new DatasetError(`${dir}: field '${field}' has an invalid CF encoding (scale_factor, add_offset, _FillValue).`);
  }
  return {
    scale_factor: scale, add_offset: offset, _FillValue: fill,
    units: typeof a.units === 'string' ? a.units : '', long_name: typeof a.long_name === 'string' ? a.long_name : '',
  };
}

async function readAxis(store: zarr.Readable, dir: string, name: 'x' | 'y', n: number, step: number): Promise<number> {
  const array = await openArray(store, dir, name);
  if (array.dtype !== 'float64' && array.dtype !== 'float32') throw new DatasetError(`${dir}: coordinate '${name}' is not float.`);
  const values = (await zarr.get(array)).data as Float64Array | Float32Array;
  if (values.length !== n) throw new DatasetError(`${dir}: coordinate '${name}' has ${values.length} values, expected ${n}.`);
  for (let i = 1; i < n; i++) {
    if (Math.abs(values[i] - values[i - 1] - step) > Math.abs(step) * 1e-6) {
      throw new DatasetError(`${dir}: coordinate '${name}' is not a regular axis with step ${step} m.`);
    }
  }
  return values[0];
}

function checkHourly(array: StoreArray, dir: string, field: HourlyField): { shape: number[]; chunks: number[] } {
  const dims = array.dimensionNames;
  if (array.dtype !== 'int16' || array.shape.length !== 3 || (dims && dims.join(',') !== 'time,y,x')) {
    throw new DatasetError(`${dir}: field '${field}' must be int16 with dims (time, y, x).`);
  }
  if (array.chunks[0] !== array.shape[0]) {
    throw new DatasetError(`${dir}: field '${field}' chunks must span the whole time axis.`);
  }
  return { shape: array.shape, chunks: array.chunks };
}

/**
 * Opens the store at `dir` and validates it against the dataset format; throws `DatasetError` otherwise.
 * `syncReads`: chunk files are read with blocking calls (worker threads only).
 */
export async function openStore(dir: string, syncReads = false): Promise<OpenedStore> {
  registerNativeCodecs();
  const metadata = await readConsolidated(dir);
  const base = checkAttrs(metadata['.zattrs'], (detail) => failDataset(`${dir}: ${detail}`));
  const conventions = (metadata['.zattrs'] as Record<string, unknown>).Conventions;
  const attrs: DatasetAttrs = { ...base, Conventions: typeof conventions === 'string' ? conventions : '' };
  const store = await zarr.withConsolidatedMetadata(new ChunkFileStore(dir, { sync: syncReads }), { format: 'v2' });
  const fields = new Map<HourlyField, { array: StoreArray; encoding: CfEncoding }>();
  let layout: { shape: number[]; chunks: number[] } | undefined;
  for (const field of attrs.fields) {
    const array = await openArray(store, dir, field);
    const own = checkHourly(array, dir, field);
    if (layout && (own.shape.join() !== layout.shape.join() || own.chunks.join() !== layout.chunks.join())) {
      throw new DatasetError(`${dir}: field '${field}' differs in shape or chunks from '${attrs.fields[0]}'.`);
    }
    layout = own;
    fields.set(field, { array, encoding: readEncoding(array, dir, field) });
  }
  const [hours, ny, nx] = layout!.shape;
  const time = await openArray(store, dir, 'time');
  if (time.shape.length !== 1 || time.shape[0] !== hours) throw new DatasetError(`${dir}: time has ${time.shape[0]} values, expected ${hours}.`);
  const res = attrs.resolution_m;
  const grid: GridGeometry = {
    crs_epsg: attrs.crs_epsg, resolution_m: res, nx, ny,
    x0: await readAxis(store, dir, 'x', nx, res),
    y0: await readAxis(store, dir, 'y', ny, -res),
  };
  const outdoor = await openArray(store, dir, 'outdoor');
  const buildingHeight = await openArray(store, dir, 'building_height');
  if (outdoor.dtype !== 'uint8' || buildingHeight.dtype !== 'float32'
    || outdoor.shape.join() !== `${ny},${nx}` || buildingHeight.shape.join() !== `${ny},${nx}`) {
    throw new DatasetError(`${dir}: static arrays must be outdoor uint8 and building_height float32 of shape (${ny}, ${nx}).`);
  }
  const chunk: ChunkShape = { hours, rows: layout!.chunks[1], cols: layout!.chunks[2] };
  return { attrs, grid, hours, chunk, fields, outdoor, buildingHeight };
}
