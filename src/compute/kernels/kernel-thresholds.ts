/**
 * Raw int16 thresholds for the statistics kernel. The reference classifies CF-decoded float32 values
 * (src/store/cf-decode.ts: float32 multiply, then add; fill → NaN); with a positive scale that decoding is monotone in
 * the raw value, so every test "decoded value > bound" is exactly "raw > t" for the raw value t found by bisection over
 * the int16 range. The thresholds are therefore exact for any scale and offset, not only for the datasets' 0.1 and 0.01.
 */
import { DatasetError } from '../../errors.js';
import { BELAQI_BOUNDS, POLLUTANTS, type Pollutant } from '../../classification/belaqi.js';
import type { CfEncoding, HourlyField } from '../../store/dataset-types.js';
import { THRESHOLD_TABLE } from './kernel-layout.js';

const INT16_MIN = -32768;
const INT16_MAX = 32767;

/** How the kernel decides "has data" for one field. */
export interface RawValidity {
  /** A raw value has data when it is greater than `t0` (and, after remapping, is not the fill value). */
  readonly t0: number;
  /** The fill value lies inside the valid range: it must be rewritten to −32768 before accumulating. */
  readonly remapFill: boolean;
  /** After remapping, a genuine −32768 would read as missing: a chunk holding one must be rejected. */
  readonly rejectMinimum: boolean;
}

/** The threshold table for the kernel plus the per-field validity rules. */
export interface RawThresholds {
  /**
   * `THRESHOLD_TABLE.COUNT` thresholds in the entry order of assembly/_layout.ts (memory repeats each in 8 int16
   * lanes).
   */
  readonly table: Int32Array;
  readonly validity: Readonly<Partial<Record<HourlyField, RawValidity>>>;
}

/** The reference's decoded value of a raw int16 (float32 multiply, then float32 add), ignoring the fill value. */
export function decodeRaw(raw: number, encoding: CfEncoding): number {
  return Math.fround(Math.fround(raw * Math.fround(encoding.scale_factor)) + Math.fround(encoding.add_offset));
}

/** Throws `DatasetError` unless the encoding decodes every int16 to a finite value, increasing with the raw value. */
function checkKernelEncoding(field: HourlyField, encoding: CfEncoding | undefined): asserts encoding is CfEncoding {
  if (encoding === undefined) throw new DatasetError(`No CF encoding given for field ${field}.`);
  const { scale_factor: scale, add_offset: offset, _FillValue: fill } = encoding;
  if (!Number.isFinite(scale) || !(Math.fround(scale) > 0) || !Number.isFinite(offset)) {
    throw new DatasetError(`Field ${field}: the kernel needs a finite positive scale_factor and a finite add_offset.`);
  }
  if (!Number.isInteger(fill) || fill < INT16_MIN || fill > INT16_MAX) {
    throw new DatasetError(`Field ${field}: _FillValue ${fill} is not an int16.`);
  }
  if (!Number.isFinite(decodeRaw(INT16_MIN, encoding)) || !Number.isFinite(decodeRaw(INT16_MAX, encoding))) {
    throw new DatasetError(`Field ${field}: the encoding decodes int16 values beyond the float32 range.`);
  }
}

/** Smallest raw value whose decoded value satisfies the upward-closed `test`; INT16_MAX + 1 when none does. */
function firstRaw(encoding: CfEncoding, test: (value: number) => boolean): number {
  let lo = INT16_MIN;
  let hi = INT16_MAX + 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (test(decodeRaw(mid, encoding))) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Validity rule of a field whose decoded value has data when `valid(value)` (upward-closed) and the raw is not fill. */
function validity(encoding: CfEncoding, valid: (value: number) => boolean): RawValidity {
  const first = firstRaw(encoding, valid);
  const fill = encoding._FillValue;
  if (first > INT16_MAX) return { t0: INT16_MAX, remapFill: false, rejectMinimum: false };
  if (fill < first) return { t0: first - 1, remapFill: false, rejectMinimum: false };
  if (fill === first) return { t0: first, remapFill: false, rejectMinimum: false };
  return first > INT16_MIN
    ? { t0: first - 1, remapFill: true, rejectMinimum: false }
    : { t0: INT16_MIN, remapFill: true, rejectMinimum: true };
}

/** Validity of a pollutant as `pollutantClass` judges it: NO2 needs a value above 0, particulates accept 0. */
function pollutantValidity(pollutant: Pollutant, encoding: CfEncoding): RawValidity {
  return validity(encoding, pollutant === 'no2' ? (v) => v > 0 : (v) => v >= 0);
}

/** Builds the raw threshold table for the fields of a computation; encodings are checked with `checkKernelEncoding`. */
export function rawThresholds(
  fields: readonly HourlyField[], encodings: Readonly<Partial<Record<HourlyField, CfEncoding>>>,
): RawThresholds {
  const table = new Int32Array(THRESHOLD_TABLE.COUNT).fill(INT16_MAX);
  const rules: Partial<Record<HourlyField, RawValidity>> = {};
  POLLUTANTS.forEach((pollutant, p) => {
    if (!fields.includes(pollutant)) return;
    const encoding = encodings[pollutant];
    checkKernelEncoding(pollutant, encoding);
    const rule = pollutantValidity(pollutant, encoding);
    rules[pollutant] = rule;
    table[THRESHOLD_TABLE.AIR + 10 * p] = rule.t0;
    BELAQI_BOUNDS[pollutant].forEach((bound, k) => {
      const t = firstRaw(encoding, (v) => v > bound) - 1;
      table[THRESHOLD_TABLE.AIR + 10 * p + k + 1] = Math.min(INT16_MAX, Math.max(rule.t0, t));
    });
  });
  (['ucomfort', 'ugust', 'utci'] as const).forEach((field, i) => {
    if (!fields.includes(field)) return;
    const encoding = encodings[field];
    checkKernelEncoding(field, encoding);
    const rule = validity(encoding, () => true);
    rules[field] = rule;
    table[THRESHOLD_TABLE.MET + i] = rule.t0;
  });
  return { table, validity: rules };
}
