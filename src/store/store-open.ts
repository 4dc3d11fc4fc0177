/**
 * Opening and validating a dataset's metadata: consolidated metadata, group attributes, chunk manifest, arrays,
 * coordinates and encodings. A store that exists but cannot be read as written surfaces here as a `DamagedDataError`
 * naming the dataset and the problem; a store that does not exist is a `DatasetError`.
 */
import { basename } from 'node:path';
import * as zarr from 'zarrita';
import { DamagedDataError, DatasetError } from '../errors.js';
import { checkManifestCovers, MANIFEST_FILE, readManifest, type ChunkManifest } from './chunk-manifest.js';
import { dataLocation, type DataLocation } from './data-location.js';
import type { CfEncoding, ChunkShape, DatasetAttrs, GridGeometry, HourlyField } from './dataset-types.js';
import type { StorageCodecs } from './codecs.js';
import { ManifestStore, type KeyStore } from './manifest-store.js';
import { checkAttrs } from './spec-check.js';
import { registerNativeCodecs } from './zarrita-codecs.js';

/** A zarrita array of the consolidated filesystem store. */
export type StoreArray = zarr.Array<zarr.DataType, zarr.Readable>;

/** The validated shape of an open store. */
export interface OpenedStore {
  readonly attrs: DatasetAttrs;
  readonly grid: GridGeometry;
  readonly hours: number;
  readonly chunk: ChunkShape;
  readonly fields: ReadonlyMap<HourlyField, { readonly array: StoreArray; readonly encoding: CfEncoding; readonly codecs: StorageCodecs }>;
  readonly outdoor: StoreArray;
  readonly buildingHeight: StoreArray;
  /** The consolidated metadata (`.zmetadata` → `metadata`). */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** The chunk manifest; undefined only when opened with `requireManifest: false` and the store has none. */
  readonly manifest: ChunkManifest | undefined;
  /** Stored chunk bytes by key (`/no2/0/3/5`), verified against the manifest when there is one. */
  readonly chunks: KeyStore;
  /** The same, never blocking (for several reads in flight), even when `chunks` reads synchronously. */
  readonly concurrentChunks: KeyStore;
}

/** Options of `openStore`. */
export interface OpenStoreOptions {
  /** Read chunk files with blocking calls (worker threads only). Default false. */
  readonly syncReads?: boolean;
  /** Refuse a store without a chunk manifest (default true); `svc data verify --write-manifest` opens without. */
  readonly requireManifest?: boolean;
}

/** What an open failure names: the dataset (the directory name) and its directory; and where it is read from. */
interface Where {
  readonly id: string;
  readonly dir: string;
  readonly location: DataLocation;
}

/** A `DamagedDataError` about the store at `where`. */
function damaged(where: Where, detail: string, cause?: unknown, path = where.dir): DamagedDataError {
  return new DamagedDataError(`Dataset '${where.id}' is damaged: ${detail}`, { dataset: where.id, path, cause });
}

const errnoOf = (err: unknown): string => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

/**
 * Reads the consolidated metadata. Where the back end can tell (a directory), a missing store is told from a store
 * missing its metadata (damage); where it cannot (HTTP), a store without consolidated metadata is no store at all.
 */
async function readConsolidated(where: Where): Promise<Record<string, unknown>> {
  const { dir, location } = where;
  let state;
  try {
    state = await location.state();
  } catch (cause) {
    // Something is there but cannot be examined (ELOOP, EACCES): the message names the problem.
    throw damaged(where, `its directory cannot be read (${errnoOf(cause)}).`, cause);
  }
  if (state === 'absent') throw new DatasetError(`Dataset not found: ${dir} does not exist.`);
  if (state === 'file') throw new DatasetError(`Dataset not found: ${dir} is not a directory.`);
  const file = location.join('.zmetadata');
  let bytes: Uint8Array | undefined;
  try {
    bytes = await file.read();
  } catch (cause) {
    // Over HTTP a failed read says nothing about the stored data (a server or network fault): not damage.
    if (!location.failureIsDamage) throw new DatasetError(`Dataset '${where.id}': ${file.href} cannot be read (${errnoOf(cause)}).`, { cause });
    throw damaged(where, `its consolidated metadata (.zmetadata) cannot be read (${errnoOf(cause)}).`, cause, file.href);
  }
  if (bytes === undefined) {
    if (state === 'unknown') throw new DatasetError(`Dataset not found: ${file.href} does not exist (${location.absentAs}).`);
    throw damaged(where, 'its consolidated metadata (.zmetadata) is missing.', undefined, file.href);
  }
  return parseConsolidated(where, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'), file.href);
}

/** Parses and checks the text of `.zmetadata`. */
function parseConsolidated(where: Where, bytes: string, path: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = JSON.parse(bytes);
  } catch (cause) {
    throw damaged(where, 'its consolidated metadata (.zmetadata) is corrupt (not JSON).', cause, path);
  }
  const metadata = (doc as { metadata?: unknown } | null)?.metadata;
  if (typeof metadata !== 'object' || metadata === null) {
    throw damaged(where, "its consolidated metadata (.zmetadata) has no 'metadata' object.", undefined, path);
  }
  return metadata as Record<string, unknown>;
}

async function openArray(store: zarr.Readable, where: Where, name: string): Promise<StoreArray> {
  try {
    return await zarr.open.v2(zarr.root(store).resolve(name), { kind: 'array' });
  } catch (cause) {
    throw damaged(where, `array '${name}' is missing or its metadata is invalid.`, cause);
  }
}

function readEncoding(array: StoreArray, where: Where, field: HourlyField): CfEncoding {
  const a = array.attrs as Record<string, unknown>;
  const scale = a.scale_factor ?? 1;
  const offset = a.add_offset ?? 0;
  const fill = a._FillValue ?? array.fillValue;
  if (typeof scale !== 'number' || typeof offset !== 'number' || typeof fill !== 'number' || !Number.isInteger(fill)) {
    throw damaged(where, `field '${field}' has an invalid CF encoding (scale_factor, add_offset, _FillValue).`);
  }
  return {
    scale_factor: scale, add_offset: offset, _FillValue: fill,
    units: typeof a.units === 'string' ? a.units : '', long_name: typeof a.long_name === 'string' ? a.long_name : '',
  };
}

async function readAxis(store: zarr.Readable, where: Where, name: 'x' | 'y', n: number, step: number): Promise<number> {
  const array = await openArray(store, where, name);
  if (array.dtype !== 'float64' && array.dtype !== 'float32') throw damaged(where, `coordinate '${name}' is not float.`);
  const values = (await zarr.get(array)).data as Float64Array | Float32Array;
  if (values.length !== n) throw damaged(where, `coordinate '${name}' has ${values.length} values, expected ${n}.`);
  for (let i = 1; i < n; i++) {
    if (Math.abs(values[i] - values[i - 1] - step) > Math.abs(step) * 1e-6) {
      throw damaged(where, `coordinate '${name}' is not a regular axis with step ${step} m.`);
    }
  }
  return values[0];
}

function checkHourly(array: StoreArray, where: Where, field: HourlyField): { shape: number[]; chunks: number[] } {
  const dims = array.dimensionNames;
  if (array.dtype !== 'int16' || array.shape.length !== 3 || (dims && dims.join(',') !== 'time,y,x')) {
    throw damaged(where, `field '${field}' must be int16 with dims (time, y, x).`);
  }
  if (array.chunks[0] !== array.shape[0]) {
    throw damaged(where, `field '${field}' chunks must span the whole time axis.`);
  }
  return { shape: array.shape, chunks: array.chunks };
}

/** The filters and compressor of an array as its `.zarray` in the consolidated metadata records them. */
function storageCodecs(metadata: Readonly<Record<string, unknown>>, name: string): StorageCodecs {
  const zarray = metadata[`${name}/.zarray`] as Partial<StorageCodecs> | undefined;
  return { filters: zarray?.filters ?? null, compressor: zarray?.compressor ?? null };
}

/** Reads and checks the manifest against the metadata; undefined only when absent and not required. */
async function openManifest(where: Where, metadata: Readonly<Record<string, unknown>>, contentVersion: string, required: boolean) {
  const manifest = await readManifest(where.location, where.id);
  if (manifest === undefined) {
    if (!required) return undefined;
    throw damaged(where, `it has no chunk manifest (${MANIFEST_FILE}), so missing chunks cannot be told from fill values.`,
      undefined, `${where.dir}/${MANIFEST_FILE}`);
  }
  checkManifestCovers(manifest, metadata, contentVersion, where.id, where.dir);
  return manifest;
}

/**
 * Opens the store at `at` (a directory or a URL: data-location.ts) and validates it against the dataset format; throws `DatasetError` when there is no store
 * and `DamagedDataError` when the store cannot be read as written (metadata, manifest, coordinates).
 */
export async function openStore(at: string | DataLocation, options: OpenStoreOptions = {}): Promise<OpenedStore> {
  registerNativeCodecs();
  const location = dataLocation(at);
  const dir = location.href;
  const where: Where = { id: basename(dir), dir, location };
  const metadata = await readConsolidated(where);
  const base = checkAttrs(metadata['.zattrs'], (detail) => damaged(where, detail));
  const conventions = (metadata['.zattrs'] as Record<string, unknown>).Conventions;
  const attrs: DatasetAttrs = { ...base, Conventions: typeof conventions === 'string' ? conventions : '' };
  const manifest = await openManifest(where, metadata, attrs.content_version, options.requireManifest !== false);
  const verified = (files: KeyStore): KeyStore => (manifest ? new ManifestStore(files, manifest, where.id, location) : files);
  const expectedSize = (key: string) => manifest?.entry(key)?.size;
  const chunks = verified(location.keyStore({ sync: options.syncReads === true, expectedSize }));
  const concurrentChunks = verified(location.keyStore({ expectedSize }));
  const store = await zarr.withConsolidatedMetadata(chunks, { format: 'v2' });
  const fields = new Map<HourlyField, { array: StoreArray; encoding: CfEncoding; codecs: StorageCodecs }>();
  let layout: { shape: number[]; chunks: number[] } | undefined;
  for (const field of attrs.fields) {
    const array = await openArray(store, where, field);
    const own = checkHourly(array, where, field);
    if (layout && (own.shape.join() !== layout.shape.join() || own.chunks.join() !== layout.chunks.join())) {
      throw damaged(where, `field '${field}' differs in shape or chunks from '${attrs.fields[0]}'.`);
    }
    layout = own;
    fields.set(field, { array, encoding: readEncoding(array, where, field), codecs: storageCodecs(metadata, field) });
  }
  const [hours, ny, nx] = layout!.shape;
  const time = await openArray(store, where, 'time');
  if (time.shape.length !== 1 || time.shape[0] !== hours) throw damaged(where, `time has ${time.shape[0]} values, expected ${hours}.`);
  const res = attrs.resolution_m;
  const grid: GridGeometry = {
    crs_epsg: attrs.crs_epsg, resolution_m: res, nx, ny,
    x0: await readAxis(store, where, 'x', nx, res),
    y0: await readAxis(store, where, 'y', ny, -res),
  };
  const outdoor = await openArray(store, where, 'outdoor');
  const buildingHeight = await openArray(store, where, 'building_height');
  if (outdoor.dtype !== 'uint8' || buildingHeight.dtype !== 'float32'
    || outdoor.shape.join() !== `${ny},${nx}` || buildingHeight.shape.join() !== `${ny},${nx}`) {
    throw damaged(where, `static arrays must be outdoor uint8 and building_height float32 of shape (${ny}, ${nx}).`);
  }
  const chunk: ChunkShape = { hours, rows: layout!.chunks[1], cols: layout!.chunks[2] };
  return { attrs, grid, hours, chunk, fields, outdoor, buildingHeight, metadata, manifest, chunks, concurrentChunks };
}
