/**
 * Puts the fast codecs into zarrita's codec registry: native zstd (zstd-napi) instead of the numcodecs WebAssembly
 * build, a fast shuffle filter and the int16 delta filter. zarrita maps a v2 `compressor`/`filters` id `X` to the registry key `numcodecs.X`
 * and instantiates it with `fromConfig(config, chunkMeta)`, where `chunkMeta.codecs` lists the array's whole chain.
 *
 * When an int16 shuffle filter feeds zstd directly (the default codecs), the pair decodes in one pass: the zstd codec
 * decompresses and unshuffles (codec-zstd-shuffle.ts) and the shuffle codec's decode is the identity. Both codecs see
 * the same chain and make the same decision, so encode and decode stay inverse in every case.
 */
import * as zarr from 'zarrita';
import { deltaDecode16, deltaEncode16, isDelta16 } from './codec-delta.js';
import { shuffleBytes, unshuffleBytes } from './codec-shuffle.js';
import { zstdCompress, zstdDecompress } from './codec-zstd.js';
import { zstdUnshuffle16 } from './codec-zstd-shuffle.js';
import { isShuffledZstd16 } from './codecs.js';

const BYTES_PER_ELEMENT: Readonly<Record<string, number>> = {
  bool: 1, int8: 1, uint8: 1, int16: 2, uint16: 2, float16: 2,
  int32: 4, uint32: 4, float32: 4, int64: 8, uint64: 8, float64: 8,
};

/** What zarrita passes as the second argument of `fromConfig`. */
export interface ChunkMeta {
  readonly dataType?: string;
  readonly codecs?: readonly { readonly name: string; readonly configuration?: Record<string, unknown> }[];
}

/** True when, in this chain, a 2-byte shuffle filter sits directly before zstd (the fused decode applies). */
export function fusedChain(meta: ChunkMeta | undefined): boolean {
  const names = meta?.codecs?.map((c) => c.name) ?? [];
  const z = names.indexOf('numcodecs.zstd');
  if (z < 1 || names[z - 1] !== 'numcodecs.shuffle') return false;
  const shuffle = { id: 'shuffle', ...(meta!.codecs![z - 1].configuration ?? {}) };
  return isShuffledZstd16(shuffle, { id: 'zstd' }, BYTES_PER_ELEMENT[meta?.dataType ?? ''] ?? 0);
}

/** zarrita codec for numcodecs `zstd`, decoded by libzstd. */
class NativeZstdCodec {
  readonly kind = 'bytes_to_bytes';
  readonly #level: number;
  readonly #fused: boolean;

  constructor(level: number, fused: boolean) {
    this.#level = level;
    this.#fused = fused;
  }

  static fromConfig(config: { level?: number }, meta?: ChunkMeta): NativeZstdCodec {
    const level = Number.isInteger(config?.level) && (config.level as number) > 0 ? (config.level as number) : 3;
    return new NativeZstdCodec(level, fusedChain(meta));
  }

  encode(bytes: Uint8Array): Uint8Array {
    return zstdCompress(bytes, this.#level);
  }

  decode(bytes: Uint8Array): Uint8Array {
    return this.#fused ? zstdUnshuffle16(bytes) : zstdDecompress(bytes);
  }
}

/** zarrita codec for the numcodecs `shuffle` filter. */
class FastShuffleCodec {
  readonly kind = 'bytes_to_bytes';
  readonly #elementSize: number;
  readonly #fused: boolean;

  constructor(elementSize: number, fused: boolean) {
    this.#elementSize = elementSize;
    this.#fused = fused;
  }

  static fromConfig(config: { elementsize?: number }, meta?: ChunkMeta): FastShuffleCodec {
    const fromMeta = meta?.dataType ? BYTES_PER_ELEMENT[meta.dataType] : undefined;
    return new FastShuffleCodec(config?.elementsize ?? fromMeta ?? 4, fusedChain(meta));
  }

  encode(bytes: Uint8Array): Uint8Array {
    return shuffleBytes(bytes, this.#elementSize);
  }

  /** Identity when zstd already unshuffled (fused chain). */
  decode(bytes: Uint8Array): Uint8Array {
    return this.#fused ? bytes : unshuffleBytes(bytes, this.#elementSize);
  }
}

/** zarrita codec for the numcodecs `delta` filter over int16 (the only dtype the writer uses it with). */
class Delta16Codec {
  readonly kind = 'bytes_to_bytes';

  static fromConfig(config: { id?: string; dtype?: string; astype?: string }): Delta16Codec {
    if (!isDelta16({ id: 'delta', ...config })) throw new Error(`Codec delta: unsupported dtype ${String(config?.dtype)}.`);
    return new Delta16Codec();
  }

  encode(bytes: Uint8Array): Uint8Array {
    return deltaEncode16(bytes);
  }

  decode(bytes: Uint8Array): Uint8Array {
    return deltaDecode16(bytes);
  }
}

type RegistryEntry = Parameters<typeof zarr.registry.set>[1];

let registered = false;

/** Registers the native codecs in zarrita's (process-wide, per-thread) registry; idempotent. */
export function registerNativeCodecs(): void {
  if (registered) return;
  const zstd = (async () => NativeZstdCodec) as unknown as RegistryEntry;
  const shuffle = (async () => FastShuffleCodec) as unknown as RegistryEntry;
  const delta = (async () => Delta16Codec) as unknown as RegistryEntry;
  zarr.registry.set('numcodecs.zstd', zstd).set('zstd', zstd).set('numcodecs.shuffle', shuffle).set('numcodecs.delta', delta);
  registered = true;
}
