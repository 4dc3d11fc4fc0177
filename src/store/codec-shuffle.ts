/**
 * The numcodecs `shuffle` filter: byte k of every element is stored in plane k (all first bytes, then all second bytes,
 * ...). For smooth int16 fields the high-byte plane is nearly constant and compresses to almost nothing.
 * Trailing bytes that do not fill an element are copied unchanged, as numcodecs does.
 */

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * An uninitialised buffer with its own zero-offset ArrayBuffer (so it can be viewed as any typed array). Skipping the
 * zero fill is safe because every byte is written, and saves a pass over the whole chunk.
 */
function freshBytes(length: number): Uint8Array {
  const buf = Buffer.allocUnsafeSlow(length);
  return new Uint8Array(buf.buffer, 0, length);
}

/** Splits `bytes` into `elementSize` byte planes. */
export function shuffleBytes(bytes: Uint8Array, elementSize: number): Uint8Array {
  const count = Math.floor(bytes.length / elementSize);
  const out = freshBytes(bytes.length);
  if (elementSize === 2 && LITTLE_ENDIAN && count % 4 === 0 && bytes.byteOffset % 4 === 0) {
    shuffle16Words(bytes, count, out);
  } else {
    for (let b = 0; b < elementSize; b++) {
      const plane = b * count;
      for (let i = 0, j = b; i < count; i++, j += elementSize) out[plane + i] = bytes[j];
    }
  }
  out.set(bytes.subarray(count * elementSize), count * elementSize);
  return out;
}

/** The int16 encode path: two input words (four elements) become one word of low bytes and one of high bytes. */
function shuffle16Words(bytes: Uint8Array, count: number, out: Uint8Array): void {
  const words = count >> 2;
  const src = new Int32Array(bytes.buffer, bytes.byteOffset, words * 2);
  const lo = new Int32Array(out.buffer, 0, words);
  const hi = new Int32Array(out.buffer, count, words);
  for (let j = 0; j < words; j++) {
    const w0 = src[2 * j];
    const w1 = src[2 * j + 1];
    lo[j] = (w0 & 0xff) | ((w0 >>> 8) & 0xff00) | ((w1 & 0xff) << 16) | ((w1 << 8) & 0xff000000);
    hi[j] = ((w0 >>> 8) & 0xff) | ((w0 >>> 16) & 0xff00) | ((w1 << 8) & 0xff0000) | (w1 & 0xff000000);
  }
}

/** Interleaves `elementSize` byte planes back into elements (the inverse of `shuffleBytes`), in a fresh buffer. */
export function unshuffleBytes(bytes: Uint8Array, elementSize: number): Uint8Array {
  const out = freshBytes(bytes.length);
  unshuffleInto(bytes, elementSize, out);
  return out;
}

/**
 * `unshuffleBytes` into `out` (as long as `bytes`, a zero-offset buffer of its own: the int16 path reads it as words).
 * What a decoder that decompresses into scratch memory calls, so a chunk costs one allocation, its result.
 */
export function unshuffleInto(bytes: Uint8Array, elementSize: number, out: Uint8Array): void {
  const count = Math.floor(bytes.length / elementSize);
  if (elementSize === 2 && LITTLE_ENDIAN && count % 4 === 0 && bytes.byteOffset % 4 === 0 && out.byteOffset === 0) {
    unshuffle16Words(bytes, count, out);
  } else if (elementSize === 2 && LITTLE_ENDIAN && out.byteOffset % 2 === 0) {
    const out16 = new Uint16Array(out.buffer, out.byteOffset, count);
    for (let i = 0; i < count; i++) out16[i] = bytes[i] | (bytes[count + i] << 8);
  } else {
    for (let b = 0; b < elementSize; b++) {
      const plane = b * count;
      for (let i = 0, j = b; i < count; i++, j += elementSize) out[j] = bytes[plane + i];
    }
  }
  out.set(bytes.subarray(count * elementSize), count * elementSize);
}

/**
 * The int16 hot path: reads four low bytes and four high bytes as one 32-bit word each and writes four elements as
 * two words, a quarter of the memory operations of a byte loop. Needs both planes 4-byte aligned.
 */
function unshuffle16Words(bytes: Uint8Array, count: number, out: Uint8Array): void {
  const words = count >> 2;
  const lo = new Int32Array(bytes.buffer, bytes.byteOffset, words);
  const hi = new Int32Array(bytes.buffer, bytes.byteOffset + count, words);
  const dst = new Int32Array(out.buffer, 0, words * 2);
  for (let j = 0; j < words; j++) {
    const l = lo[j];
    const h = hi[j];
    dst[2 * j] = (l & 0xff) | ((h & 0xff) << 8) | ((l & 0xff00) << 8) | ((h & 0xff00) << 16);
    dst[2 * j + 1] = ((l >>> 16) & 0xff) | ((h >>> 8) & 0xff00) | ((l >>> 8) & 0xff0000) | (h & 0xff000000);
  }
}
