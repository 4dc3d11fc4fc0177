/**
 * Codec candidates of the data benchmark. Each candidate is a `.zarray` codec setting (what Python's numcodecs would
 * read) plus the decoder this service would use for it: the compute threads' path (native zstd into kernel memory,
 * then the SIMD unshuffle, with the running sum of the delta filter where present), native zstd through the store's
 * codecs, the numcodecs WebAssembly zstd, the numcodecs WebAssembly blosc, or nothing.
 */
import { loadStatsKernel } from '../src/compute/kernels/stats-kernel.js';
import { buildCalendar } from '../src/stats/calendar.js';
import { unshuffleBytes } from '../src/store/codec-shuffle.js';
import { zstdDecompress } from '../src/store/codec-zstd.js';
import { createChunkCodec, directChunkCodec, type CodecConfig, type StorageCodecs } from '../src/store/codecs.js';
import { FIELD_ENCODINGS } from '../src/store/dataset-types.js';
import { BENCH_CHUNK } from './data-fields.js';

/** One candidate row. */
export interface CodecCandidate {
  readonly label: string;
  readonly codecs: StorageCodecs;
  /**
   * Which implementation decodes zstd frames: `kernel` is the compute threads' path (libzstd into the statistics
   * kernel's memory, unshuffled there by SIMD), `native` the store's codecs (libzstd; with a shuffle filter fused with
   * the unshuffle kernel), `native-js` decodes natively then unshuffles in TypeScript, `wasm` is numcodecs' zstd.
   */
  readonly zstd: 'kernel' | 'native' | 'native-js' | 'wasm';
}

const SHUFFLE: CodecConfig = { id: 'shuffle', elementsize: 2 };
const DELTA: CodecConfig = { id: 'delta', dtype: '<i2' };

function zstd(level: number, filters: 'none' | 'shuffle' | 'delta', decoder: CodecCandidate['zstd']): CodecCandidate {
  const chain = { none: null, shuffle: [SHUFFLE], delta: [DELTA, SHUFFLE] }[filters];
  const name = { none: '', shuffle: ' + shuffle', delta: ' + delta + shuffle' }[filters];
  return { label: `zstd-${level}${name} (${decoder})`, codecs: { filters: chain, compressor: { id: 'zstd', level } }, zstd: decoder };
}

function blosc(cname: 'lz4' | 'zstd', shuffle: 0 | 1 | 2): CodecCandidate {
  const name = ['noshuffle', 'byte shuffle', 'bit shuffle'][shuffle];
  return {
    label: `blosc-${cname}-5 ${name} (wasm)`,
    codecs: { filters: null, compressor: { id: 'blosc', cname, clevel: 5, shuffle, blocksize: 0 } },
    zstd: 'wasm',
  };
}

/** Every candidate, in table order. */
export const CANDIDATES: readonly CodecCandidate[] = [
  { label: 'none', codecs: { filters: null, compressor: null }, zstd: 'native' },
  zstd(1, 'none', 'native'), zstd(3, 'none', 'native'),
  ...[-5, -3, -1, 1, 3, 6].map((level) => zstd(level, 'shuffle', 'kernel')),
  ...[-1, 1, 3].map((level) => zstd(level, 'delta', 'kernel')),
  zstd(3, 'shuffle', 'native'), zstd(3, 'shuffle', 'native-js'),
  zstd(3, 'none', 'wasm'), zstd(3, 'shuffle', 'wasm'),
  blosc('lz4', 0), blosc('lz4', 1), blosc('lz4', 2), blosc('zstd', 2),
];

/** The compute threads' decoder: into the statistics kernel's chunk buffer; returns a view of it (no copy). */
async function kernelDecoder(candidate: CodecCandidate): Promise<ChunkDecoder> {
  const codec = directChunkCodec(candidate.codecs);
  if (codec === undefined) throw new Error(`${candidate.label}: no direct decode path`);
  const { hours, rows, cols } = BENCH_CHUNK;
  const kernel = await loadStatsKernel();
  // Every candidate decodes into the same computation's buffer (one thread, one kernel, chunks of the same shape).
  kernel.begin(hours, ['no2'], { no2: FIELD_ENCODINGS.no2 }, calendar ??= buildCalendar(2023, hours, 'Europe/Brussels'));
  return async (bytes) => {
    kernel.loadShuffledChunk('no2', rows * cols, bytes, codec);
    const view = kernel.chunkView('no2', rows * cols);
    return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  };
}

let calendar: ReturnType<typeof buildCalendar> | undefined;

/** A decoder for one candidate's stored bytes (the inverse of its filters and compressor). */
export type ChunkDecoder = (bytes: Uint8Array) => Promise<Uint8Array>;

/**
 * Builds the decode pipeline of a candidate with the implementation it names: the service's own chunk codec (native
 * zstd, fused with the unshuffle kernel when a shuffle filter feeds zstd; numcodecs blosc) or, for `wasm` zstd, the
 * numcodecs WebAssembly zstd (or native zstd, for `native-js`) followed by the TypeScript unshuffle.
 */
export async function candidateDecoder(candidate: CodecCandidate): Promise<ChunkDecoder> {
  if (candidate.zstd === 'kernel') return kernelDecoder(candidate);
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
