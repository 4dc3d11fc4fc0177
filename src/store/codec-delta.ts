/**
 * The numcodecs `delta` filter for int16 (`{"id": "delta", "dtype": "<i2"}`): the first value, then each value minus
 * the one before, wrapping at 16 bits as numpy's int16 arithmetic does. In a chunk laid out (hours, rows, cols),
 * consecutive values are neighbouring cells of one hour, so the differences of a spatially smooth field are small and
 * their high bytes nearly constant: shuffled and compressed they take less room than the values themselves.
 * Only int16 is supported; other dtypes are refused where the filter is configured (codecs.ts).
 */

/** Whether a filter configuration is numcodecs' delta over little-endian int16 (stored as int16 too). */
export function isDelta16(config: { readonly id: string; readonly [key: string]: unknown } | undefined): boolean {
  if (config?.id !== 'delta') return false;
  const int16 = (v: unknown) => v === '<i2' || v === 'int16' || v === 'i2';
  return int16(config.dtype) && (config.astype === undefined || int16(config.astype));
}

/** An int16 view of `bytes` (copied when unaligned). */
function int16View(bytes: Uint8Array): Int16Array {
  const aligned = bytes.byteOffset % 2 === 0 ? bytes : bytes.slice();
  return new Int16Array(aligned.buffer, aligned.byteOffset, aligned.byteLength >> 1);
}

/** Encodes: differences of consecutive int16 values (the first value kept); returns fresh bytes. */
export function deltaEncode16(bytes: Uint8Array): Uint8Array {
  const values = int16View(bytes);
  const out = new Int16Array(values.length);
  let previous = 0;
  for (let i = 0; i < values.length; i++) {
    out[i] = values[i] - previous;
    previous = values[i];
  }
  return new Uint8Array(out.buffer);
}

/** Decodes: running sums of the stored differences, wrapping at 16 bits; returns fresh bytes. */
export function deltaDecode16(bytes: Uint8Array): Uint8Array {
  const diffs = int16View(bytes);
  const out = new Int16Array(diffs.length);
  let total = 0;
  for (let i = 0; i < diffs.length; i++) {
    total = (total + diffs[i]) << 16 >> 16;
    out[i] = total;
  }
  return new Uint8Array(out.buffer);
}
