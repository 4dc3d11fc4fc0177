/**
 * The default chunk codecs' decode paths in one pass. Byte-shuffled int16 data (the hourly fields): a zstd frame is
 * decompressed straight into the kernel's linear memory, unshuffled there by SIMD (assembly/_unshuffle.ts) and copied
 * once into the caller's buffer. Other element sizes (the float32 grids of a precompute): decompressed into reused
 * scratch memory and unshuffled from there into the result. Compared with decompressing into a fresh buffer and
 * unshuffling into another, a chunk allocates its result alone and the scratch stays hot in cache.
 */
import { unshuffleBytes, unshuffleInto } from './codec-shuffle.js';
import { zstdDecompress, zstdDecompressInto, zstdSingleFrameSize } from './codec-zstd.js';
import { align16, reserveMemory, scratchBase, sharedKernel } from './store-kernel.js';

/** Largest decoded frame taken through kernel memory; bigger ones use the two-step path rather than grow it further. */
const MAX_FUSED_BYTES = 64 * 1024 * 1024;

/** Decodes a zstd frame holding int16 data shuffled into two byte planes; returns the int16 bytes in a fresh buffer. */
export function zstdUnshuffle16(bytes: Uint8Array): Uint8Array {
  const size = zstdSingleFrameSize(bytes);
  if (size === null || size % 2 !== 0 || size > MAX_FUSED_BYTES) return unshuffleBytes(zstdDecompress(bytes), 2);
  const kernel = sharedKernel();
  const src = scratchBase(kernel);
  const dst = src + align16(size);
  reserveMemory(kernel, dst + size);
  const memory = new Uint8Array(kernel.memory.buffer);
  zstdDecompressInto(bytes, memory.subarray(src, src + size));
  kernel.unshuffle_i16(src, dst, size / 2);
  // allocUnsafeSlow: every byte is overwritten, and a zero-offset ArrayBuffer takes an Int16Array view.
  const out = new Uint8Array(Buffer.allocUnsafeSlow(size).buffer, 0, size);
  out.set(memory.subarray(dst, dst + size));
  return out;
}

/** Largest frame the other element sizes decompress into reused scratch memory (held for the thread's life). */
const MAX_SCRATCH_BYTES = 8 * 1024 * 1024;
let scratch: Uint8Array | undefined;

/**
 * Decodes a zstd frame of data shuffled into `elementSize` byte planes (the float32 grids of a precompute: 4) into a
 * fresh buffer: decompressed into reused scratch memory and unshuffled from there, so a chunk allocates its result
 * alone rather than a decompressed copy as well. Frames above `MAX_SCRATCH_BYTES` take the two-step path.
 */
export function zstdUnshuffle(bytes: Uint8Array, elementSize: number): Uint8Array {
  const size = zstdSingleFrameSize(bytes);
  if (size === null || size > MAX_SCRATCH_BYTES) return unshuffleBytes(zstdDecompress(bytes), elementSize);
  if (scratch === undefined || scratch.length < size) scratch = new Uint8Array(size);
  const src = scratch.subarray(0, size);
  zstdDecompressInto(bytes, src);
  // allocUnsafeSlow: every byte is overwritten, and a zero-offset ArrayBuffer takes any typed view.
  const out = new Uint8Array(Buffer.allocUnsafeSlow(size).buffer, 0, size);
  unshuffleInto(src, elementSize, out);
  return out;
}
