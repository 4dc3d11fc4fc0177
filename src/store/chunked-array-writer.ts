/**
 * Writes one 2-D Zarr v2 array (float32 or float64, NaN = no value) whose rows arrive in order, in any number at a
 * time, as chunks of `chunkRows` × `chunkCols`: a chunk row is written as soon as its rows are in, so memory holds at
 * most one chunk row of the array (chunkRows × cols values), none when the rows come in whole chunk rows. Zarr chunks are whole, so the last chunk row and column
 * are padded with the fill value. Used by the grid group writer for the grids and for what is derived from them
 * (the map's overviews).
 */
import type { ChunkCodec, StorageCodecs } from './codecs.js';
import { DIMENSION_SEPARATOR } from './zarr-metadata.js';

/** Float arrays the writer takes. */
export type FloatRows = Float32Array | Float64Array;

/** Where the chunk files go: `put(key, bytes)` writes `<path>/<b>/<c>` under the group. */
export type PutFile = (key: string, data: Uint8Array) => Promise<void>;

/** The shape and storage of a chunked array. */
export interface ChunkedArraySpec {
  /** The array's key in its group (`name`, or `group/…/name`). */
  readonly path: string;
  readonly rows: number;
  readonly cols: number;
  readonly chunkRows: number;
  readonly chunkCols: number;
  readonly dtype: '<f4' | '<f8';
}

/** The `.zarray` document of `spec` stored with `codecs`. */
export function chunkedArrayMeta(spec: ChunkedArraySpec, codecs: StorageCodecs): Record<string, unknown> {
  return {
    zarr_format: 2, shape: [spec.rows, spec.cols], chunks: [spec.chunkRows, spec.chunkCols], dtype: spec.dtype,
    compressor: codecs.compressor, filters: codecs.filters, fill_value: 'NaN', order: 'C', dimension_separator: DIMENSION_SEPARATOR,
  };
}

/** One array being written. */
export class ChunkedArrayWriter {
  readonly spec: ChunkedArraySpec;
  readonly #codec: ChunkCodec;
  readonly #put: PutFile;
  /** The chunk row being filled: chunkRows × cols values (allocated on the first partial chunk row). */
  #pendingBuffer: FloatRows | undefined;
  #pendingRows = 0;
  #rowsIn = 0;
  #chunkRow = 0;

  /** `codec` must be made for the element size of `spec.dtype`. */
  constructor(spec: ChunkedArraySpec, codec: ChunkCodec, put: PutFile) {
    this.spec = spec;
    this.#codec = codec;
    this.#put = put;
  }

  /** The buffer of a chunk row being filled. */
  get #pending(): FloatRows {
    const Type = this.spec.dtype === '<f4' ? Float32Array : Float64Array;
    this.#pendingBuffer ??= new Type(this.spec.chunkRows * this.spec.cols);
    return this.#pendingBuffer;
  }

  /** Rows written so far. */
  get rowsIn(): number {
    return this.#rowsIn;
  }

  /** Appends whole rows (`values.length` a multiple of cols), writing every chunk row they complete. */
  async append(values: FloatRows): Promise<void> {
    const { cols, rows, chunkRows, path } = this.spec;
    const count = values.length / cols;
    if (!Number.isInteger(count) || this.#rowsIn + count > rows) {
      throw new RangeError(`${values.length} values are not whole rows of ${cols} within the ${rows - this.#rowsIn} rows left of ${path}.`);
    }
    let done = 0;
    while (done < count) {
      const take = Math.min(count - done, chunkRows - this.#pendingRows);
      const ends = this.#pendingRows + take === chunkRows || this.#rowsIn + take === rows;
      this.#rowsIn += take;
      if (this.#pendingRows === 0 && take === chunkRows && values instanceof (this.spec.dtype === '<f4' ? Float32Array : Float64Array)) {
        // A whole chunk row in the caller's rows (the grids' bands): written from them, not copied first.
        await this.#flush(values.subarray(done * cols, (done + take) * cols), take);
      } else {
        this.#pending.set(values.subarray(done * cols, (done + take) * cols), this.#pendingRows * cols);
        this.#pendingRows += take;
        if (ends) await this.#flush(this.#pending, this.#pendingRows);
      }
      done += take;
    }
  }

  /**
   * Checks that every row came (the last chunk row is written by the append that completes the array) and lets the
   * chunk row buffer go.
   */
  finish(): void {
    if (this.#rowsIn !== this.spec.rows) throw new RangeError(`${this.spec.path} received ${this.#rowsIn} of its ${this.spec.rows} rows.`);
    this.#pendingBuffer = undefined;
  }

  /**
   * Writes the chunk row whose first `filled` rows `source` holds (the pending buffer, or a whole chunk row of the
   * caller's) as chunks of chunkCols columns, padding the short row and column with NaN.
   */
  async #flush(source: FloatRows, filled: number): Promise<void> {
    const { cols, chunkRows, chunkCols, path } = this.spec;
    let pending = source;
    if (filled < chunkRows) {
      pending = this.#pending;
      pending.fill(Number.NaN, filled * cols);
    }
    const Type = pending instanceof Float32Array ? Float32Array : Float64Array;
    const whole = chunkCols === cols;
    const chunk = whole ? pending : new Type(chunkRows * chunkCols);
    for (let c = 0; c * chunkCols < cols; c++) {
      if (!whole) {
        const c0 = c * chunkCols;
        const width = Math.min(chunkCols, cols - c0);
        if (width < chunkCols) chunk.fill(Number.NaN);
        for (let r = 0; r < chunkRows; r++) chunk.set(pending.subarray(r * cols + c0, r * cols + c0 + width), r * chunkCols);
      }
      const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      await this.#put(`${path}/${this.#chunkRow}/${c}`, await this.#codec.encode(bytes));
    }
    this.#chunkRow++;
    this.#pendingRows = 0;
  }
}
