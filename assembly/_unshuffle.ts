// Byte unshuffle for 2-byte elements (the numcodecs `shuffle` filter, decode direction): `n` low bytes at `src` and
// `n` high bytes at `src + n` become `n` little-endian int16 values at `dst` (non-overlapping, bounds checked on the
// JavaScript side). Included by cf-decode.ts: unshuffle and CF decode are the two decode steps of a stored chunk.

/** Interleaves the low-byte plane at `src` and the high-byte plane at `src + n` into `n` int16 values at `dst`. */
export function unshuffle_i16(src: usize, dst: usize, n: i32): void {
  interleavePlanes(src, src + <usize>n, dst, n);
}

/**
 * Interleaves `n` low bytes at `lo` and `n` high bytes at `hi` into `n` int16 values at `dst`: a run of values from
 * anywhere in a shuffled chunk (its two planes offset alike).
 */
export function interleavePlanes(lo: usize, hi: usize, dst: usize, n: i32): void {
  let i: i32 = 0;
  if (ASC_FEATURE_SIMD) {
    const end = n & ~15;
    for (; i < end; i += 16) {
      const l = v128.load(lo + <usize>i);
      const h = v128.load(hi + <usize>i);
      const out = dst + (<usize>i << 1);
      v128.store(out, i8x16.shuffle(l, h, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23));
      v128.store(out, i8x16.shuffle(l, h, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31), 16);
    }
  } else {
    // Four elements per step: one 32-bit load from each plane, two 32-bit stores.
    const end = n & ~3;
    for (; i < end; i += 4) {
      const l = load<u32>(lo + <usize>i);
      const h = load<u32>(hi + <usize>i);
      const out = dst + (<usize>i << 1);
      store<u32>(out, (l & 0xff) | ((h & 0xff) << 8) | ((l & 0xff00) << 8) | ((h & 0xff00) << 16));
      store<u32>(out, ((l >>> 16) & 0xff) | ((h >>> 8) & 0xff00) | ((l >>> 8) & 0xff0000) | (h & 0xff000000), 4);
    }
  }
  for (; i < n; i++) {
    store<u16>(dst + (<usize>i << 1), <u16>load<u8>(lo + <usize>i) | (<u16>load<u8>(hi + <usize>i) << 8));
  }
}

/**
 * `unshuffle_i16` followed by the decode direction of numcodecs' `delta` filter for int16 (which the encoder applied
 * before shuffling): every value is the running sum of the interleaved differences, wrapping at 16 bits as numpy's
 * int16 `cumsum` does. SIMD: a prefix sum within each vector in three shifted adds, plus the running total broadcast.
 */
export function unshuffle_delta_i16(src: usize, dst: usize, n: i32): void {
  let i: i32 = 0;
  const hi = src + <usize>n;
  let total: i16 = 0;
  if (ASC_FEATURE_SIMD) {
    const zero = i16x8.splat(0);
    let carry = zero;
    const end = n & ~15;
    for (; i < end; i += 16) {
      const l = v128.load(src + <usize>i);
      const h = v128.load(hi + <usize>i);
      const out = dst + (<usize>i << 1);
      let a = i8x16.shuffle(l, h, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
      a = i16x8.add(a, i8x16.shuffle(a, zero, 30, 31, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13));
      a = i16x8.add(a, i8x16.shuffle(a, zero, 28, 29, 30, 31, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
      a = i16x8.add(a, i8x16.shuffle(a, zero, 24, 25, 26, 27, 28, 29, 30, 31, 0, 1, 2, 3, 4, 5, 6, 7));
      a = i16x8.add(a, carry);
      carry = i8x16.shuffle(a, a, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15);
      v128.store(out, a);
      let b = i8x16.shuffle(l, h, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
      b = i16x8.add(b, i8x16.shuffle(b, zero, 30, 31, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13));
      b = i16x8.add(b, i8x16.shuffle(b, zero, 28, 29, 30, 31, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
      b = i16x8.add(b, i8x16.shuffle(b, zero, 24, 25, 26, 27, 28, 29, 30, 31, 0, 1, 2, 3, 4, 5, 6, 7));
      b = i16x8.add(b, carry);
      carry = i8x16.shuffle(b, b, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15);
      v128.store(out, b, 16);
    }
    total = i16x8.extract_lane_s(carry, 0);
  }
  for (; i < n; i++) {
    total = <i16>(total + <i16>(<u16>load<u8>(src + <usize>i) | (<u16>load<u8>(hi + <usize>i) << 8)));
    store<i16>(dst + (<usize>i << 1), total);
  }
}
