/**
 * Native Zstandard through zstd-napi (libzstd compiled from bundled source). Decoding a whole-year chunk is the hot
 * path of a cold query; the native decoder runs two to four times faster than the WebAssembly build in numcodecs.
 * Frames are standard zstd frames with the content size in the header, so Python's numcodecs reads them too.
 */
import { Compressor, Decompressor } from 'zstd-napi';
import binding from 'zstd-napi/binding.js';

/** Highest level libzstd accepts. */
export const ZSTD_MAX_LEVEL = 22;
/** Lowest (fastest) level this service writes; libzstd's fast modes go further, with little more speed. */
export const ZSTD_MIN_LEVEL = -50;

const compressors = new Map<number, Compressor>();
let dctx: InstanceType<typeof binding.DCtx> | undefined;
let streaming: Decompressor | undefined;

/** Compresses `bytes` into one zstd frame at `level` (−50…22, negative: fast modes); contexts are reused per level within a thread. */
export function zstdCompress(bytes: Uint8Array, level: number): Uint8Array {
  let compressor = compressors.get(level);
  if (!compressor) {
    compressor = new Compressor();
    compressor.setParameters({ compressionLevel: level });
    compressors.set(level, compressor);
  }
  return compressor.compress(bytes);
}

/** The decoded size of `bytes` if it is exactly one zstd frame that declares its content size, else null. */
export function zstdSingleFrameSize(bytes: Uint8Array): number | null {
  return binding.findFrameCompressedSize(bytes) === bytes.length ? binding.getFrameContentSize(bytes) : null;
}

/** Decodes one frame into `dst` (exactly its declared content size); throws on corrupt input or a size mismatch. */
export function zstdDecompressInto(bytes: Uint8Array, dst: Uint8Array): void {
  dctx ??= new binding.DCtx();
  const written = dctx.decompress(dst, bytes);
  if (written !== dst.length) throw new Error(`zstd frame declared ${dst.length} bytes but decoded ${written}`);
}

/**
 * Decompresses zstd data into a plain Uint8Array. A single frame that declares its content size (every frame
 * numcodecs and this module write) is decoded straight into an exactly sized buffer; anything else goes through the
 * streaming decoder. Truncated or corrupt input throws.
 */
export function zstdDecompress(bytes: Uint8Array): Uint8Array {
  const contentSize = zstdSingleFrameSize(bytes);
  if (contentSize === null) {
    streaming ??= new Decompressor();
    const out = streaming.decompress(bytes);
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  }
  // allocUnsafeSlow: a dedicated, zero-offset ArrayBuffer, so typed views of any element size can be laid over it.
  const out = new Uint8Array(Buffer.allocUnsafeSlow(contentSize).buffer, 0, contentSize);
  zstdDecompressInto(bytes, out);
  return out;
}
