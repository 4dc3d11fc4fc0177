/**
 * Stored chunk frames for the decode and precompute workloads: int16 values, after numcodecs' delta filter for
 * `delta-shuffle`, byte-shuffled into two planes and compressed as one zstd frame at the level the datasets are
 * written with (`DEFAULT_STORAGE_CODECS`): zstd decodes its fast levels about half again as fast as level 3, so
 * frames of another level would misstate the decode's share of a precompute.
 */
import { zstdCompress } from '../../src/store/codec-zstd.js';
import type { DirectChunkCodec } from '../../src/store/codecs.js';
import { shuffleBytes } from '../../src/store/codec-shuffle.js';
import { DEFAULT_STORAGE_CODECS } from '../../src/store/zarr-metadata.js';

/** zstd level of the datasets' chunks. */
export const FRAME_LEVEL = Number(DEFAULT_STORAGE_CODECS.compressor?.level);

/** One stored frame of `values` under `codec`. */
export function encodeChunk(values: Int16Array, codec: DirectChunkCodec): Uint8Array {
  let data = values;
  if (codec === 'delta-shuffle') {
    data = new Int16Array(values.length);
    let prev = 0;
    for (let i = 0; i < values.length; i++) {
      data[i] = values[i]! - prev; // wraps at 16 bits, as numpy's int16 diff does
      prev = values[i]!;
    }
  }
  return zstdCompress(shuffleBytes(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), 2), FRAME_LEVEL);
}
