/**
 * Raw thresholds of the statistics kernel against the reference classification, exhaustively: for every int16 value
 * and several encodings (the datasets' 0.1 µg/m3, awkward scales and offsets, fill values inside the valid range), the
 * kernel's rule "valid when raw > t0, class = 1 + #(raw > tk)" gives exactly `pollutantClass` of the CF-decoded value.
 */
import { describe, expect, it } from 'vitest';
import { rawThresholds } from '../../src/compute/kernels/kernel-thresholds.js';
import { THRESHOLD_TABLE } from '../../src/compute/kernels/kernel-layout.js';
import { POLLUTANTS, pollutantClass } from '../../src/classification/belaqi.js';
import { cfDecodeReference } from '../../src/store/cf-decode.js';
import { FIELD_ENCODINGS, HOURLY_FIELDS, type CfEncoding } from '../../src/store/dataset-types.js';
import { DatasetError } from '../../src/errors.js';

const ALL_RAW = Int16Array.from({ length: 65536 }, (_, i) => i - 32768);

/** Encodings to check, by name: each applies to all three pollutants. */
const CASES: Readonly<Record<string, Partial<CfEncoding>>> = {
  dataset: {},
  'scale 0.3, offset −5': { scale_factor: 0.3, add_offset: -5 },
  'scale 0.05, offset 2.5': { scale_factor: 0.05, add_offset: 2.5 },
  'scale 0.01': { scale_factor: 0.01 },
  'fill 0 (inside the valid range)': { _FillValue: 0 },
  'fill 32767': { _FillValue: 32767 },
  'fill 100 on a bound': { _FillValue: 100 },
};

describe('raw thresholds', () => {
  for (const [name, change] of Object.entries(CASES)) {
    it(`reproduce the reference classes for every int16 (${name})`, () => {
      const encodings = Object.fromEntries(POLLUTANTS.map((p) => [p, { ...FIELD_ENCODINGS[p], ...change }]));
      const { table, validity } = rawThresholds(POLLUTANTS, encodings);
      POLLUTANTS.forEach((p, i) => {
        const e = encodings[p];
        const decoded = cfDecodeReference(ALL_RAW, e);
        const t = table.subarray(THRESHOLD_TABLE.AIR + 10 * i, THRESHOLD_TABLE.AIR + 10 * i + 10);
        for (let j = 0; j < ALL_RAW.length; j++) {
          // The kernel sees the fill value as −32768 when it had to remap it.
          const raw = validity[p]?.remapFill && ALL_RAW[j] === e._FillValue ? -32768 : ALL_RAW[j];
          let cls = raw > t[0] ? 1 : 0;
          for (let k = 1; k < 10 && cls > 0; k++) cls += raw > t[k] ? 1 : 0;
          const expected = pollutantClass(p, decoded[j]);
          if (cls !== expected) expect.fail(`${p} raw ${ALL_RAW[j]} (${decoded[j]}): kernel class ${cls}, reference ${expected}`);
        }
      });
    });
  }

  it('accept every non-fill value of the wind and UTCI fields', () => {
    const { table, validity } = rawThresholds(HOURLY_FIELDS, FIELD_ENCODINGS);
    expect([table[THRESHOLD_TABLE.MET], table[THRESHOLD_TABLE.MET + 1], table[THRESHOLD_TABLE.MET + 2]]).toEqual([-32768, -32768, -32768]);
    expect(validity.ucomfort).toEqual({ t0: -32768, remapFill: false, rejectMinimum: false });
  });

  it('flag a fill value inside an all-valid range as ambiguous with −32768', () => {
    const { validity } = rawThresholds(['utci'], { utci: { ...FIELD_ENCODINGS.utci, _FillValue: -9999 } });
    expect(validity.utci).toEqual({ t0: -32768, remapFill: true, rejectMinimum: true });
  });

  it('refuse encodings the kernel cannot order', () => {
    const bad = (change: Partial<CfEncoding>) => () => rawThresholds(['no2'], { no2: { ...FIELD_ENCODINGS.no2, ...change } });
    expect(bad({ scale_factor: 0 })).toThrow(DatasetError);
    expect(bad({ scale_factor: -0.1 })).toThrow(DatasetError);
    expect(bad({ scale_factor: Number.NaN })).toThrow(DatasetError);
    expect(bad({ add_offset: Number.POSITIVE_INFINITY })).toThrow(DatasetError);
    expect(bad({ _FillValue: 40000 })).toThrow(DatasetError);
    expect(bad({ scale_factor: 1e36 })).toThrow(DatasetError);
    expect(() => rawThresholds(['no2'], {})).toThrow(DatasetError);
  });
});
