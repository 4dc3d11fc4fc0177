/**
 * Storage codecs by numcodecs id: the writer encodes chunks with them, benchmarks and the import path decode with them.
 * Every id here is one Python's numcodecs reads, so xarray opens what we write. zstd is native (zstd-napi); blosc is
 * the numcodecs WebAssembly build; shuffle and delta (int16 only) are plain TypeScript.
 */
import { ValidationError } from '../errors.js';
import { deltaDecode16, deltaEncode16, isDelta16 } from './codec-delta.js';
import { shuffleBytes, unshuffleBytes } from './codec-shuffle.js';
import { ZSTD_MAX_LEVEL, ZSTD_MIN_LEVEL, zstdCompress, zstdDecompress } from './codec-zstd.js';
import { zstdUnshuffle, zstdUnshuffle16 } from './codec-zstd-shuffle.js';

/** A numcodecs codec configuration as stored in `.zarray` (`compressor`, or an entry of `filters`). */
export interface CodecConfig {
  readonly id: string;
  readonly [key: string]: unknown;
}

/** A bytes-to-bytes codec. */
export interface ByteCodec {
  encode(bytes: Uint8Array): Uint8Array | Promise<Uint8Array>;
  decode(bytes: Uint8Array): Uint8Array | Promise<Uint8Array>;
}

/** Builds a codec from its config; `elementSize` is the array's bytes per element. Throws on a bad config. */
type CodecFactory = (config: CodecConfig, elementSize: number) => Promise<ByteCodec>;

function integerIn(config: CodecConfig, key: string, min: number, max: number, fallback: number): number {
  const value = config[key] ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ValidationError(`Codec ${config.id}: ${key} must be an integer in ${min}..${max} (got ${String(value)}).`);
  }
  return value;
}

const FACTORIES: ReadonlyMap<string, CodecFactory> = new Map<string, CodecFactory>([
  ['zstd', async (config) => {
    // Negative levels are zstd's fast modes (numcodecs and libzstd take them); decoding never needs the level.
    const level = integerIn(config, 'level', ZSTD_MIN_LEVEL, ZSTD_MAX_LEVEL, 3);
    return { encode: (b) => zstdCompress(b, level), decode: (b) => zstdDecompress(b) };
  }],
  ['shuffle', async (config, elementSize) => {
    const size = integerIn(config, 'elementsize', 1, 16, elementSize);
    return { encode: (b) => shuffleBytes(b, size), decode: (b) => unshuffleBytes(b, size) };
  }],
  ['delta', async (config, elementSize) => {
    if (!isDelta16(config) || elementSize !== 2) {
      throw new ValidationError(`Codec delta: only dtype <i2 on int16 arrays is supported (got ${String(config.dtype)}).`);
    }
    return { encode: deltaEncode16, decode: deltaDecode16 };
  }],
  ['blosc', async (config) => {
    const cname = config.cname ?? 'lz4';
    if (typeof cname !== 'string' || !['lz4', 'lz4hc', 'blosclz', 'zstd', 'zlib'].includes(cname)) {
      throw new ValidationError(`Codec blosc: unsupported cname ${String(cname)}.`);
    }
    const Blosc = (await import('numcodecs/blosc')).default;
    return Blosc.fromConfig({
      id: 'blosc',
      cname,
      clevel: integerIn(config, 'clevel', 0, 9, 5),
      shuffle: integerIn(config, 'shuffle', -1, 2, 1),
      blocksize: integerIn(config, 'blocksize', 0, 2 ** 30, 0),
    });
  }],
]);

/** Codec ids the writer can encode and the reader can decode. */
const CODEC_IDS: readonly string[] = [...FACTORIES.keys()];

/** Instantiates one codec; a `ValidationError` names an unknown id or a bad parameter. */
export async function loadCodec(config: CodecConfig, elementSize: number): Promise<ByteCodec> {
  const factory = FACTORIES.get(config.id);
  if (!factory) throw new ValidationError(`Unknown codec '${config.id}'; known: ${CODEC_IDS.join(', ')}.`);
  return factory(config, elementSize);
}

/** Filters then compressor of one array, applied in Zarr v2 order (filters first on encode, last on decode). */
export interface StorageCodecs {
  readonly filters: readonly CodecConfig[] | null;
  readonly compressor: CodecConfig | null;
}

/** An encode/decode pair for the chunks of one array. */
export interface ChunkCodec {
  encode(bytes: Uint8Array): Promise<Uint8Array>;
  decode(bytes: Uint8Array): Promise<Uint8Array>;
}

/** True when an int16 shuffle filter feeds zstd directly: the pair then decodes in one pass (codec-zstd-shuffle.ts). */
export function isShuffledZstd16(filter: CodecConfig | undefined, compressor: CodecConfig | null, elementSize: number): boolean {
  return filter?.id === 'shuffle' && (filter.elementsize ?? elementSize) === 2 && compressor?.id === 'zstd';
}

/**
 * How a compute thread can decode an int16 array's chunks straight into kernel memory: zstd into scratch memory, then
 * one SIMD pass that unshuffles (`shuffle`) or unshuffles and undoes the delta filter (`delta-shuffle`). Undefined
 * for any other chain, which goes through the generic codec path.
 */
export type DirectChunkCodec = 'shuffle' | 'delta-shuffle';

/** The direct decode path of an int16 array's codecs, if it has one. */
export function directChunkCodec(codecs: StorageCodecs): DirectChunkCodec | undefined {
  const filters = codecs.filters ?? [];
  if (filters.length === 1 && isShuffledZstd16(filters[0], codecs.compressor, 2)) return 'shuffle';
  if (filters.length === 2 && isDelta16(filters[0]) && isShuffledZstd16(filters[1], codecs.compressor, 2)) return 'delta-shuffle';
  return undefined;
}

/** Builds the chunk codec of an array from its `.zarray` codec settings. */
export async function createChunkCodec(codecs: StorageCodecs, elementSize: number): Promise<ChunkCodec> {
  const configs = [...(codecs.filters ?? []), ...(codecs.compressor ? [codecs.compressor] : [])];
  const steps = await Promise.all(configs.map((c) => loadCodec(c, elementSize)));
  const decoders: ((b: Uint8Array) => Uint8Array | Promise<Uint8Array>)[] = steps.map((step) => (b) => step.decode(b));
  const filters = codecs.filters ?? [];
  const last = filters[filters.length - 1];
  if (isShuffledZstd16(last, codecs.compressor, elementSize)) {
    decoders.splice(decoders.length - 2, 2, zstdUnshuffle16);
  } else if (last?.id === 'shuffle' && codecs.compressor?.id === 'zstd') {
    const size = Number(last.elementsize ?? elementSize);
    decoders.splice(decoders.length - 2, 2, (b) => zstdUnshuffle(b, size));
  }
  return {
    async encode(bytes) {
      let out = bytes;
      for (const step of steps) out = await step.encode(out);
      return out;
    },
    async decode(bytes) {
      let out = bytes;
      for (let i = decoders.length - 1; i >= 0; i--) out = await decoders[i](out);
      return out;
    },
  };
}
