// The decode kernels of the dataset store: unshuffle (stored byte planes -> int16, from _unshuffle.ts) and CF decoding
// of packed int16 data to float32: physical = raw * scale + offset, raw === fill -> NaN.
// Flat linear memory: the caller places `n` int16 values at `src` and reserves `n` float32 slots at `dst`
// (both 4-byte aligned, non-overlapping); bounds are checked once on the JavaScript side (src/store/cf-decode.ts).
// The arithmetic is float32 (multiply, then add), so results match a float32 reference bit for bit.

export { unshuffle_i16, unshuffle_delta_i16 } from './_unshuffle';

/** First free byte after the module's static data; the JavaScript side lays its buffers out from here. */
export function heap_base(): usize {
  return __heap_base;
}

/** Decodes `n` int16 values at `src` into float32 values at `dst`; fill values become NaN. */
export function decode_i16_f32(src: usize, dst: usize, n: i32, scale: f32, offset: f32, fill: i32): void {
  let i: i32 = 0;
  if (ASC_FEATURE_SIMD) {
    const vScale = f32x4.splat(scale);
    const vOffset = f32x4.splat(offset);
    const vNaN = f32x4.splat(NaN);
    const vFill = i16x8.splat(<i16>fill);
    const end = n & ~7;
    for (; i < end; i += 8) {
      const raw = v128.load(src + (<usize>i << 1));
      const isFill = i16x8.eq(raw, vFill);
      const lo = f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_s(raw));
      const hi = f32x4.convert_i32x4_s(i32x4.extend_high_i16x8_s(raw));
      const loVal = f32x4.add(f32x4.mul(lo, vScale), vOffset);
      const hiVal = f32x4.add(f32x4.mul(hi, vScale), vOffset);
      // Sign-extending the 16-bit lane masks widens all-ones/all-zeros to 32-bit lane masks.
      const loMask = i32x4.extend_low_i16x8_s(isFill);
      const hiMask = i32x4.extend_high_i16x8_s(isFill);
      const out = dst + (<usize>i << 2);
      v128.store(out, v128.bitselect(vNaN, loVal, loMask));
      v128.store(out, v128.bitselect(vNaN, hiVal, hiMask), 16);
    }
  }
  for (; i < n; i++) {
    const raw = <i32>load<i16>(src + (<usize>i << 1));
    const value: f32 = raw == fill ? NaN : <f32>raw * scale + offset;
    store<f32>(dst + (<usize>i << 2), value);
  }
}
