/**
 * Reads datasets written by zarr-writer.ts (or by xarray in the same format) through zarrita. Only whole chunks are
 * read (`getChunk`); zstd chunks are decoded by native libzstd (see zarrita-codecs.ts). Values stay raw int16 until a
 * caller asks for decoded values, which go through the CF decode kernel.
 */
import { DamagedDataError, DatasetError, ServiceError, ValidationError } from '../errors.js';
import { cfDecode } from './cf-decode.js';
import { gatherChunk, groupCellsByChunk } from './cell-gather.js';
import type { StorageCodecs } from './codecs.js';
import type { AggregateSection } from './aggregate-files.js';
import type {
  CellBlock, CfEncoding, DatasetReader, DecodedCellBlock, HourlyField, StaticArray, StoredReadOptions,
} from './dataset-types.js';
import { dataLocation, type DataLocation } from './data-location.js';
import { openStore, type OpenedStore, type StoreArray } from './store-open.js';
import { hourlyChunkKey } from './zarr-metadata.js';

/** Chunk reads kept in flight by `readCells`: overlaps file I/O with decoding on one core. */
const READ_CONCURRENCY = 4;

async function forEachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

class ZarrDatasetReader implements DatasetReader {
  readonly dir: string;
  readonly attrs;
  readonly grid;
  readonly hours;
  readonly chunk;
  readonly fields: readonly HourlyField[];
  readonly #store: OpenedStore;
  readonly #statics = new Map<StaticArray, Promise<Uint8Array | Float32Array>>();

  constructor(dir: string, store: OpenedStore) {
    this.dir = dir;
    this.#store = store;
    this.attrs = store.attrs;
    this.grid = store.grid;
    this.hours = store.hours;
    this.chunk = store.chunk;
    this.fields = [...store.fields.keys()];
  }

  #field(field: HourlyField): { array: StoreArray; encoding: CfEncoding; codecs: StorageCodecs } {
    const entry = this.#store.fields.get(field);
    if (!entry) {
      throw new DatasetError(`Dataset '${this.attrs.dataset}' has no field '${field}' (fields: ${this.fields.join(', ')}).`);
    }
    return entry;
  }

  encoding(field: HourlyField): CfEncoding {
    return this.#field(field).encoding;
  }

  codecs(field: HourlyField): StorageCodecs {
    return this.#field(field).codecs;
  }

  /** A `DamagedDataError` for a chunk that is present and matches the manifest but does not decode as its array says. */
  #undecodable(key: string, why: string, cause?: unknown): DamagedDataError {
    const dataset = this.#store.attrs.dataset;
    return new DamagedDataError(`Dataset '${dataset}' is damaged: chunk ${key} ${why}.`, { dataset, path: `${this.dir}/${key}`, cause });
  }

  #checkChunkIndex(chunkRow: number, chunkCol: number): void {
    const rows = Math.ceil(this.grid.ny / this.chunk.rows);
    const cols = Math.ceil(this.grid.nx / this.chunk.cols);
    if (!Number.isInteger(chunkRow) || chunkRow < 0 || chunkRow >= rows || !Number.isInteger(chunkCol) || chunkCol < 0 || chunkCol >= cols) {
      throw new ValidationError(`Chunk (${chunkRow}, ${chunkCol}) is outside the ${rows} x ${cols} chunk grid.`);
    }
  }

  async readChunk(field: HourlyField, chunkRow: number, chunkCol: number): Promise<Int16Array> {
    const { array } = this.#field(field);
    this.#checkChunkIndex(chunkRow, chunkCol);
    const key = hourlyChunkKey(field, chunkRow, chunkCol);
    let data: unknown;
    try {
      data = (await array.getChunk([0, chunkRow, chunkCol])).data;
    } catch (cause) {
      if (cause instanceof ServiceError) throw cause;
      throw this.#undecodable(key, `cannot be decoded (${(cause as Error).message})`, cause);
    }
    const expected = this.chunk.hours * this.chunk.rows * this.chunk.cols;
    if (!(data instanceof Int16Array) || data.length !== expected) {
      const got = data instanceof Int16Array ? data.length : 0;
      throw this.#undecodable(key, `decodes to ${got} values where ${expected} are expected`);
    }
    return data;
  }

  async readStoredChunk(field: HourlyField, chunkRow: number, chunkCol: number, options?: StoredReadOptions): Promise<Uint8Array> {
    this.#field(field);
    this.#checkChunkIndex(chunkRow, chunkCol);
    return this.readStored(hourlyChunkKey(field, chunkRow, chunkCol), options);
  }

  get staticChunk(): readonly [number, number] {
    const [rows, cols] = this.#store.outdoor.chunks;
    return [rows, cols];
  }

  get aggregates(): AggregateSection | undefined {
    return this.#store.manifest?.aggregates;
  }

  storedChecksum(key: string): number | undefined {
    return this.#store.manifest?.entry(key)?.crc32;
  }

  async readStored(key: string, options: StoredReadOptions = {}): Promise<Uint8Array> {
    if (this.#store.manifest && this.#store.manifest.entry(key) === undefined) {
      throw new ValidationError(`Dataset '${this.attrs.dataset}' lists no stored file '${key}'.`);
    }
    const store = options.concurrent ? this.#store.concurrentChunks : this.#store.chunks;
    const bytes = await store.get(`/${key}`, options.buffer ? { buffer: options.buffer } : undefined);
    if (bytes === undefined) throw this.#undecodable(key, 'is missing');
    return bytes;
  }

  readStatic(name: 'outdoor'): Promise<Uint8Array>;
  readStatic(name: 'building_height'): Promise<Float32Array>;
  readStatic(name: StaticArray): Promise<Uint8Array | Float32Array> {
    if (name !== 'outdoor' && name !== 'building_height') {
      return Promise.reject(new ValidationError(`Unknown static array '${String(name)}'.`));
    }
    let cached = this.#statics.get(name);
    if (!cached) {
      cached = this.#assembleStatic(name);
      // A failed read is not cached: the next call retries.
      cached.catch(() => this.#statics.delete(name));
      this.#statics.set(name, cached);
    }
    return cached;
  }

  readStaticChunk(name: 'outdoor', chunkRow: number, chunkCol: number): Promise<Uint8Array>;
  readStaticChunk(name: 'building_height', chunkRow: number, chunkCol: number): Promise<Float32Array>;
  async readStaticChunk(name: StaticArray, chunkRow: number, chunkCol: number): Promise<Uint8Array | Float32Array> {
    if (name !== 'outdoor' && name !== 'building_height') throw new ValidationError(`Unknown static array '${String(name)}'.`);
    return this.#staticChunk(name, chunkRow, chunkCol);
  }

  /** Static chunk (chunkRow, chunkCol) of `name`, decoded and checked (`readStaticChunk` without the name's check). */
  async #staticChunk(name: StaticArray, chunkRow: number, chunkCol: number): Promise<Uint8Array | Float32Array> {
    const array = name === 'outdoor' ? this.#store.outdoor : this.#store.buildingHeight;
    const [cr, cc] = array.chunks;
    if (!Number.isInteger(chunkRow) || chunkRow < 0 || chunkRow * cr >= this.grid.ny || !Number.isInteger(chunkCol) || chunkCol < 0 || chunkCol * cc >= this.grid.nx) {
      throw new RangeError(`Static chunk (${chunkRow}, ${chunkCol}) is outside the grid.`);
    }
    let data: Uint8Array | Float32Array;
    try {
      data = (await array.getChunk([chunkRow, chunkCol])).data as Uint8Array | Float32Array;
    } catch (cause) {
      if (cause instanceof ServiceError) throw cause;
      throw this.#undecodable(`${name}/${chunkRow}/${chunkCol}`, `cannot be decoded (${(cause as Error).message})`, cause);
    }
    if (data.length !== cr * cc) throw this.#undecodable(`${name}/${chunkRow}/${chunkCol}`, `decodes to ${data.length} values where ${cr * cc} are expected`);
    return data;
  }

  async #assembleStatic(name: StaticArray): Promise<Uint8Array | Float32Array> {
    const array = name === 'outdoor' ? this.#store.outdoor : this.#store.buildingHeight;
    const { nx, ny } = this.grid;
    const [cr, cc] = array.chunks;
    const out = name === 'outdoor' ? new Uint8Array(nx * ny) : new Float32Array(nx * ny);
    for (let i = 0; i * cr < ny; i++) {
      for (let j = 0; j * cc < nx; j++) {
        const data = await this.#staticChunk(name, i, j);
        const width = Math.min(cc, nx - j * cc);
        for (let r = 0; r < cr && i * cr + r < ny; r++) {
          out.set(data.subarray(r * cc, r * cc + width), (i * cr + r) * nx + j * cc);
        }
      }
    }
    return out;
  }

  async readCells(fields: readonly HourlyField[], cells: Int32Array): Promise<CellBlock> {
    if (!(cells instanceof Int32Array)) throw new ValidationError('cells must be an Int32Array of flat cell indices.');
    for (const field of fields) this.#field(field);
    const groups = groupCellsByChunk(cells, this.grid, this.chunk);
    const n = cells.length;
    const raw: Partial<Record<HourlyField, Int16Array>> = {};
    for (const field of fields) {
      const out = new Int16Array(this.hours * n);
      await forEachLimited(groups, READ_CONCURRENCY, async (group) => {
        const data = await this.readChunk(field, group.chunkRow, group.chunkCol);
        gatherChunk(data, group, this.chunk, n, out);
      });
      raw[field] = out;
    }
    return { hours: this.hours, cells, raw };
  }

  async readCellsDecoded(fields: readonly HourlyField[], cells: Int32Array): Promise<DecodedCellBlock> {
    const block = await this.readCells(fields, cells);
    const values: Partial<Record<HourlyField, Float32Array>> = {};
    for (const field of fields) values[field] = cfDecode(block.raw[field] as Int16Array, this.encoding(field));
    return { hours: block.hours, cells, values };
  }
}

/** Options of `openDataset`. */
export interface OpenDatasetOptions {
  /**
   * Read chunk files with blocking calls instead of through libuv's thread pool: faster, so meant for compute worker
   * threads, where nothing else waits on the event loop. Never on a server's main thread. Default false.
   */
  readonly syncReads?: boolean;
}

/**
 * Opens the dataset at `dir` (a directory or a URL: data-location.ts). A missing store is a `DatasetError`; a store without a chunk manifest, with bad metadata
 * (including a CRS other than EPSG:31370) or with a manifest that does not match it is a `DamagedDataError`.
 */
export async function openDataset(dir: string | DataLocation, options: OpenDatasetOptions = {}): Promise<DatasetReader> {
  const location = dataLocation(dir).absolute();
  return new ZarrDatasetReader(location.href, await openStore(location, { syncReads: options.syncReads === true }));
}
