/**
 * What a cached value really holds in memory, for the byte-bounded caches: estimates of V8's layout on 64-bit Node
 * (8-byte fields, no pointer compression, which Node's official builds leave off). Each constant below is V8's
 * object layout, not a guess; test/util/heap-size.test.ts checks the sums against heap growth measured with a forced
 * garbage collection, within a factor.
 *
 * - A flat string is a 16-byte header (map, hash, length) and its characters, one byte each when every one is
 *   Latin-1, else two, rounded up to 8. A string made by `JSON.stringify` or `+` may instead be a tree of pieces
 *   (rope) that costs about a third more until something flattens it: cached text should be made flat first
 *   (`flatString`).
 * - A plain object is a 24-byte header (map, properties, elements) and an 8-byte slot per property; a number that is
 *   not a small integer is a 16-byte heap number of its own.
 * - An array is a 32-byte header (the array and its backing store's) and 8 bytes per element; an array of numbers
 *   only holds them unboxed in those 8 bytes.
 * - A typed array holds its whole `ArrayBuffer`, whatever part it views: a view of a pooled 8 KiB `Buffer` slab keeps
 *   the slab alive. Buffer and view objects with the backing store's bookkeeping come to about 200 bytes.
 * - A `Map` entry takes 3 slots of an ordered hash table kept at most half full, plus a bucket: about 40 bytes.
 */

/** Bytes of a string's header (map, hash, length). */
const STRING_HEADER_BYTES = 16;
/** Bytes of a plain object's header (map, properties, elements). */
export const OBJECT_HEADER_BYTES = 24;
/** Bytes of one field: a pointer or a small integer. */
export const SLOT_BYTES = 8;
/** Bytes of a heap number (a number that is not a 31-bit integer). */
const HEAP_NUMBER_BYTES = 16;
/** Bytes of an array's header and its backing store's header. */
const ARRAY_HEADER_BYTES = 32;
/** Bytes of the `ArrayBuffer` and view objects and the backing store's bookkeeping around a typed array's data. */
export const TYPED_ARRAY_OVERHEAD_BYTES = 200;
/** Bytes one `Map` entry costs its table (3 slots, a bucket, at most half full). */
export const MAP_ENTRY_BYTES = 40;

/** `bytes` rounded up to the 8-byte allocation unit. */
const aligned = (bytes: number): number => Math.ceil(bytes / 8) * 8;

/** Whether every character of `text` is Latin-1, so V8 keeps it one byte per character. */
function oneByte(text: string): boolean {
  // A plain loop: a regular expression over long text would cost as much and allocate.
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return false;
  return true;
}

/** Bytes of `text` as a flat string. */
export function stringBytes(text: string): number {
  return STRING_HEADER_BYTES + aligned(text.length * (oneByte(text) ? 1 : 2));
}

/** A flat copy of `text` (one piece, as `stringBytes` counts it), so a string built in pieces costs no more than that. */
export function flatString(text: string): string {
  // Decoding makes a new flat string, one byte per character where the text allows it.
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** Bytes a typed array keeps alive: its whole buffer and the objects around it. */
export function typedArrayBytes(view: ArrayBufferView): number {
  return view.buffer.byteLength + TYPED_ARRAY_OVERHEAD_BYTES;
}

/** A copy of `bytes` in a buffer of its own (never a pooled slab shared with other buffers). */
export function unpooledCopy(bytes: Uint8Array | string): Buffer {
  const size = typeof bytes === 'string' ? Buffer.byteLength(bytes, 'utf8') : bytes.byteLength;
  const own = Buffer.allocUnsafeSlow(size);
  if (typeof bytes === 'string') own.write(bytes, 'utf8');
  else own.set(bytes);
  return own;
}

/**
 * Bytes of a JSON-like value (what `JSON.parse` makes, or a plain object of the same kinds) counted as if nothing in
 * it were shared: objects, arrays, strings and heap numbers; small integers, booleans and null live in their slot.
 */
export function jsonValueBytes(value: unknown): number {
  if (typeof value === 'string') return stringBytes(value);
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 2 ** 30 ? 0 : HEAP_NUMBER_BYTES;
  if (value === null || typeof value !== 'object') return 0;
  if (ArrayBuffer.isView(value)) return typedArrayBytes(value);
  if (Array.isArray(value)) {
    // An array of numbers only keeps doubles unboxed, 8 bytes each; any other array points to its elements.
    let bytes = ARRAY_HEADER_BYTES + SLOT_BYTES * value.length;
    if (value.every((item) => typeof item === 'number')) return bytes;
    for (const item of value) bytes += jsonValueBytes(item);
    return bytes;
  }
  let bytes = OBJECT_HEADER_BYTES;
  for (const item of Object.values(value)) bytes += SLOT_BYTES + jsonValueBytes(item);
  return bytes;
}
