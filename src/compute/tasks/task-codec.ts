/**
 * Binary-safe encoding of task payloads and results on NATS: a small JSON header for the structure, and every typed
 * array or ArrayBuffer in it as raw bytes after the header (no base64). Accumulate records (~1.1 MB per year of
 * hours), precompute row bands and map slices cross as they are.
 *
 * Layout: 8-byte prefix (`SVT`, format version, flags, 3 zero bytes), then the body: a little-endian uint32 header
 * length, the JSON header `{ v, b }` (`v` the value with `{ "$b": i }` in place of binary part i, `b` the parts'
 * `[type, byteLength]`), then each part, every section starting on an 8-byte boundary of the body. A body larger
 * than `COMPRESS_ABOVE` is sent as one zstd frame (fast level; flag bit 0) when that is smaller: it keeps the largest
 * messages (split accumulations of sparse counters, precompute bands with many empty cells) under NATS' default 1 MB
 * `max_payload`.
 * Decoded arrays are fresh copies with their own aligned buffers; SharedArrayBuffer views come back unshared.
 * `undefined` object members are dropped, as in JSON; NaN is only kept inside typed arrays.
 */
import { DatasetError, UpstreamError } from '../../errors.js';
import { zstdCompress, zstdDecompress } from '../../store/codec-zstd.js';

/** Bodies at least this large are compressed (when compression makes them smaller). */
export const COMPRESS_ABOVE = 64 * 1024;
const PREFIX = 8;
const VERSION = 1;
const FLAG_ZSTD = 1;
/**
 * zstd's fast level -3: accumulator records of a year (1.12 MB) compress to ~0.2 MB in ~1.3 ms and decompress in
 * ~0.5 ms; level 1 saves 13 % more bytes for twice the time, and every part of a split query is compressed and
 * decompressed on the query's critical path, so speed wins (docs/cluster.md, Payloads).
 */
const ZSTD_LEVEL = -3;

const TYPES = {
  Uint8Array, Int8Array, Uint8ClampedArray, Uint16Array, Int16Array, Uint32Array, Int32Array, Float32Array, Float64Array,
  BigInt64Array, BigUint64Array,
} as const;
type TypeName = keyof typeof TYPES | 'ArrayBuffer';

const pad8 = (n: number): number => (n + 7) & ~7;

function typeName(value: object): TypeName | undefined {
  if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && value instanceof SharedArrayBuffer)) {
    return 'ArrayBuffer';
  }
  if (!ArrayBuffer.isView(value) || value instanceof DataView) return undefined;
  const name = value.constructor.name as TypeName;
  return name in TYPES ? name : undefined;
}

/**
 * Encodes `value` (JSON-compatible data with typed arrays and ArrayBuffers anywhere inside). `compress: false` sends
 * a large body as it is: for values whose binary parts are compressed already (encoded results passed on).
 */
export function encodeTaskData(value: unknown, options: { readonly compress?: boolean } = {}): Uint8Array {
  const parts: Uint8Array[] = [];
  const types: [TypeName, number][] = [];
  const v = JSON.stringify(value, (_key, v: unknown) => {
    if (v !== null && typeof v === 'object') {
      const type = typeName(v);
      if (type !== undefined) {
        const bytes = type === 'ArrayBuffer'
          ? new Uint8Array(v as ArrayBufferLike)
          : new Uint8Array((v as ArrayBufferView).buffer, (v as ArrayBufferView).byteOffset, (v as ArrayBufferView).byteLength);
        types.push([type, bytes.byteLength]);
        parts.push(bytes);
        return { $b: parts.length - 1 };
      }
    }
    return v;
  });
  const header = `{"b":${JSON.stringify(types)},"v":${v ?? 'null'}}`;
  const headerBytes = Buffer.from(header);
  let size = pad8(4 + headerBytes.byteLength);
  for (const p of parts) size += pad8(p.byteLength);
  const body = new Uint8Array(size);
  new DataView(body.buffer).setUint32(0, headerBytes.byteLength, true);
  body.set(headerBytes, 4);
  let at = pad8(4 + headerBytes.byteLength);
  for (const p of parts) {
    body.set(p, at);
    at += pad8(p.byteLength);
  }
  let flags = 0;
  let payload: Uint8Array = body;
  if (options.compress !== false && body.byteLength >= COMPRESS_ABOVE) {
    const packed = zstdCompress(body, ZSTD_LEVEL);
    if (packed.byteLength < body.byteLength) {
      payload = packed;
      flags |= FLAG_ZSTD;
    }
  }
  const out = new Uint8Array(PREFIX + payload.byteLength);
  out.set([0x53, 0x56, 0x54, VERSION, flags, 0, 0, 0]);
  out.set(payload, PREFIX);
  return out;
}

function malformed(why: string): DatasetError {
  return new DatasetError(`A task message could not be decoded (${why}); sender and receiver may run different versions.`);
}

/** Decodes what `encodeTaskData` made; a malformed message throws `DatasetError` naming the problem. */
export function decodeTaskData<T = unknown>(message: Uint8Array): T {
  if (message.byteLength < PREFIX + 4 || message[0] !== 0x53 || message[1] !== 0x56 || message[2] !== 0x54) {
    throw malformed('not a task message');
  }
  if (message[3] !== VERSION) throw malformed(`format version ${message[3]}, expected ${VERSION}`);
  let body = message.subarray(PREFIX);
  if ((message[4]! & FLAG_ZSTD) !== 0) {
    try {
      body = zstdDecompress(body);
    } catch (err) {
      throw malformed(`corrupt compressed body: ${(err as Error).message}`);
    }
  }
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const headerLength = view.getUint32(0, true);
  if (4 + headerLength > body.byteLength) throw malformed('truncated header');
  let parsed: { v: unknown; b: [TypeName, number][] };
  try {
    parsed = JSON.parse(Buffer.from(body.buffer, body.byteOffset + 4, headerLength).toString('utf8')) as typeof parsed;
  } catch {
    throw malformed('unreadable header');
  }
  const offsets: number[] = [];
  let at = pad8(4 + headerLength);
  for (const [type, length] of parsed.b) {
    if (type !== 'ArrayBuffer' && !(type in TYPES)) throw malformed(`unknown array type ${type}`);
    if (at + length > body.byteLength) throw malformed('truncated binary part');
    offsets.push(at);
    at += pad8(length);
  }
  const revive = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map(revive);
    if ('$b' in v) {
      const i = (v as { $b: unknown }).$b;
      if (typeof i !== 'number' || parsed.b[i] === undefined) throw malformed('dangling binary reference');
      const [type, length] = parsed.b[i];
      // A fresh zero-offset buffer, so views of any element size line up (Uint8Array's slice copies; Buffer's would not).
      const copy = Uint8Array.prototype.slice.call(body, offsets[i]!, offsets[i]! + length).buffer;
      return type === 'ArrayBuffer' ? copy : new TYPES[type](copy);
    }
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = revive(x);
    return out;
  };
  return revive(parsed.v) as T;
}

/**
 * Decodes bytes another process sent (a task, or a part of one); bytes that do not decode are the sender's problem,
 * not this process's data: `UpstreamError`.
 */
export function decodeSentBytes<T>(bytes: Uint8Array): T {
  try {
    return decodeTaskData<T>(bytes);
  } catch (err) {
    if (err instanceof DatasetError) throw new UpstreamError(err.message, { cause: err });
    throw err;
  }
}
