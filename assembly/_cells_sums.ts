// The f64 sums of the precompute scan, one group of 8 cells at a time: the cells' physical values (scale × raw +
// offset, as the statistics kernel's phase B decodes a one-cell hourly value) added in hour order over a run of hours,
// in the lanes where raw > t. The eight sums stay in registers over the run, so a run of hours costs one load and one
// store per sum instead of one of each per hour.
//
// Zeroed lanes: when the offset is ±0 and the scale finite, an invalid lane's raw value is zeroed before it is scaled,
// so it adds ±0 × scale = ±0, where the general path adds the +0 of a masked value. Both leave every sum bit for bit
// as it was: a sum starts at +0 and never becomes −0 (round to nearest gives +0 for an exact cancellation), and
// adding ±0 to +0 or to a non-zero sum changes nothing. A valid lane adds raw × scale, which is scale × raw + offset
// with the ±0 offset left out (x + ±0 is x for every x but −0, and the −0 a zero raw value can give is again ±0).
import { thAt } from './_scalar';

/** Whether a field's sums may take the zeroed-lane path: offset ±0 and a finite scale (see above). */
@inline export function zeroedLanes(scale: f64, offset: f64): bool {
  return offset == 0 && scale - scale == 0;
}

/**
 * Adds the valid values of one group's column — 8 int16 at `col` + h × `rowBytes` for hours [ha, hb) — to the 8 f64
 * sums at `sum`, valid meaning raw > the int16 threshold of the table entry at `th`; when `count` is not 0 also counts
 * the valid hours negatively into the 8 int16 counters there.
 */
export function sumColumn(
  col: usize, rowBytes: usize, ha: i32, hb: i32, th: usize, scale: f64, offset: f64, sum: usize, count: usize,
): void {
  const t = v128.load(th);
  const vs = f64x2.splat(scale);
  let s0 = v128.load(sum), s1 = v128.load(sum, 16), s2 = v128.load(sum, 32), s3 = v128.load(sum, 48);
  let n = count != 0 ? v128.load(count) : i16x8.splat(0);
  let p = col + <usize>ha * rowBytes;
  if (zeroedLanes(scale, offset)) {
    for (let h = ha; h < hb; h++, p += rowBytes) {
      const raw = v128.load(p);
      const ok = i16x8.gt_s(raw, t);
      n = i16x8.add(n, ok);
      const kept = v128.and(raw, ok);
      const lo = i32x4.extend_low_i16x8_s(kept), hi = i32x4.extend_high_i16x8_s(kept);
      s0 = f64x2.add(s0, f64x2.mul(f64x2.convert_low_i32x4_s(lo), vs));
      s1 = f64x2.add(s1, f64x2.mul(f64x2.convert_low_i32x4_s(i32x4.shuffle(lo, lo, 2, 3, 2, 3)), vs));
      s2 = f64x2.add(s2, f64x2.mul(f64x2.convert_low_i32x4_s(hi), vs));
      s3 = f64x2.add(s3, f64x2.mul(f64x2.convert_low_i32x4_s(i32x4.shuffle(hi, hi, 2, 3, 2, 3)), vs));
    }
  } else {
    const vo = f64x2.splat(offset), vt = f64x2.splat(<f64>thAt(th, 0));
    for (let h = ha; h < hb; h++, p += rowBytes) {
      const raw = v128.load(p);
      n = i16x8.add(n, i16x8.gt_s(raw, t));
      const lo = i32x4.extend_low_i16x8_s(raw), hi = i32x4.extend_high_i16x8_s(raw);
      const f0 = f64x2.convert_low_i32x4_s(lo), f1 = f64x2.convert_low_i32x4_s(i32x4.shuffle(lo, lo, 2, 3, 2, 3));
      const f2 = f64x2.convert_low_i32x4_s(hi), f3 = f64x2.convert_low_i32x4_s(i32x4.shuffle(hi, hi, 2, 3, 2, 3));
      s0 = f64x2.add(s0, v128.and(f64x2.add(f64x2.mul(f0, vs), vo), f64x2.gt(f0, vt)));
      s1 = f64x2.add(s1, v128.and(f64x2.add(f64x2.mul(f1, vs), vo), f64x2.gt(f1, vt)));
      s2 = f64x2.add(s2, v128.and(f64x2.add(f64x2.mul(f2, vs), vo), f64x2.gt(f2, vt)));
      s3 = f64x2.add(s3, v128.and(f64x2.add(f64x2.mul(f3, vs), vo), f64x2.gt(f3, vt)));
    }
  }
  v128.store(sum, s0);
  v128.store(sum, s1, 16);
  v128.store(sum, s2, 32);
  v128.store(sum, s3, 48);
  if (count != 0) v128.store(count, n);
}
