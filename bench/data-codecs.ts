/**
 * Codec candidates of the data benchmark. Each candidate is a `.zarray` codec setting (what Python's numcodecs would
 * read) plus the decoder this service would use for it: native zstd (zstd-napi), the numcodecs WebAssembly zstd, the
 * numcodecs WebAssembly blosc, or nothing.
 */
import { unshuffleBytes } from '../src/store/codec-shuffle.js';
import { zstdDecompress } from '../src/store/codec-zstd.js';
import { createChunkCodec, type CodecConfig, type StorageCodecs } from '../src/store/codecs.js';

/** One candidate row. */
export interface CodecCandidate {
  readonly label: string;
  readonly codecs: StorageCodecs;
  /**
   * Which implementation decodes zstd frames: `native` is the service's path (libzstd; with a shuffle filter, fused
   * with the unshuffle kernel), `native-js` decodes natively then unshuffles in TypeScript, `wasm` is numcodecs' zstd.
   */
  readonly zstd: 'native' | 'native-js' | 'wasm';
}

const SHUFFLE: CodecConfig = { id: 'shuffle', elementsize: 2 };

function zstd(level: number, shuffle: boolean, decoder: CodecCandidate['zstd']): CodecCandidate {
  return {
    label: `zstd-${level}${shuffle ? ' + shuffle' : ''} (${decoder})`,
    codecs: { filters: shuffle ? [SHUFFLE] : null, compressor: { id: 'zstd', level } },
    zstd: decoder,
  };
}

function blosc(shuffle: 0 | 1 | 2): CodecCandidate {
  const name = ['noshuffle', 'byte shuffle', 'bit shuffle'][shuffle];
  return {
    label: `blosc-lz4-5 ${name} (wasm)`,
    codecs: { filters: null, compressor: { id: 'blosc', cname: 'lz4', clevel: 5, shuffle, blocksize: 0 } },
    zstd: 'wasm',
  };
}

/** Every candidate, in table order. */
export const CANDIDATES: readonly CodecCandidate[] = [
  { label: 'none', codecs: { filters: null, compressor: null }, zstd: 'native' },
  zstd(1, false, 'native'), zstd(3, false, 'native'),
  zstd(1, true, 'native'), zstd(3, true, 'native'), zstd(6, true, 'native'), zstd(9, true, 'native'),
  zstd(3, true, 'native-js'),
  zstd(3, false, 'wasm'), zstd(3, true, 'wasm'),
  blosc(0), blosc(1), blosc(2),
];

/** A decoder for one candidate's stored bytes (the inverse of its filters and compressor). */
export type ChunkDecoder = (bytes: Uint8Array) => Promise<Uint8Array>;

/**
 * Builds the decode pipeline of a candidate with the implementation it names: the service's own chunk codec (native
 * zstd, fused with the unshuffle kernel when a shuffle filter feeds zstd; numcodecs blosc) or, for `wasm` zstd, the
 * numcodecs WebAssembly zstd (or native zstd, for `native-js`) followed by the TypeScript unshuffle.
 */
export async function candidateDecoder(candidate: CodecCandidate): Promise<ChunkDecoder> {
  const { compressor, filters } = candidate.codecs;
  if (compressor?.id !== 'zstd' || candidate.zstd === 'native') {
    const codec = await createChunkCodec(candidate.codecs, 2);
    return (b) => codec.decode(b);
  }
  const shuffled = (filters ?? []).some((f) => f.id === 'shuffle');
  if (candidate.zstd === 'native-js') return async (b) => (shuffled ? unshuffleBytes(zstdDecompress(b), 2) : zstdDecompress(b));
  const Zstd = (await import('numcodecs/zstd')).default;
  const wasm = Zstd.fromConfig({ id: 'zstd', level: compressor.level as number });
  return async (b) => {
    const bytes = await wasm.decode(b);
    return shuffled ? unshuffleBytes(bytes, 2) : bytes;
  };
}
