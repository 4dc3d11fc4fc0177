/**
 * CF decoding of packed int16 blocks to float32 (physical = raw * scale_factor + add_offset, fill -> NaN) through the
 * WebAssembly kernel in assembly/cf-decode.ts (loaded by store-kernel.ts). Inputs are streamed through a fixed-size
 * window of linear memory, so a decode of any length never grows memory beyond one block.
 */
import { ValidationError } from '../errors.js';
import type { CfEncoding } from './dataset-types.js';
import { align16, reserveMemory, scratchBase, sharedKernel, type CfDecodeKernel } from './store-kernel.js';

/** Kernel loading lives in store-kernel.ts; re-exported for callers that pick a variant. */
export { loadCfDecodeKernel, type CfDecodeKernel, type KernelVariant } from './store-kernel.js';

/** Values decoded per kernel call: 2 MiB of int16 in, 4 MiB of float32 out. */
const BLOCK_VALUES = 1 << 20;

/** A CF decoder bound to one instance of the kernel; not shareable across threads. */
export class CfDecoder {
  readonly #kernel: CfDecodeKernel;

  constructor(kernel: CfDecodeKernel) {
    this.#kernel = kernel;
  }

  /** Decodes `raw` into `out` (allocated when omitted); `out` must have the same length as `raw`. */
  decode(raw: Int16Array, encoding: CfEncoding, out?: Float32Array): Float32Array {
    const result = out ?? new Float32Array(raw.length);
    if (result.length !== raw.length) {
      throw new ValidationError(`CF decode: output length ${result.length} differs from input length ${raw.length}.`);
    }
    checkEncoding(encoding);
    const block = Math.min(BLOCK_VALUES, raw.length);
    const src = scratchBase(this.#kernel);
    const dst = src + align16(block * 2);
    reserveMemory(this.#kernel, dst + block * 4);
    for (let start = 0; start < raw.length; start += block) {
      const n = Math.min(block, raw.length - start);
      // Views are made per call: growing memory (here or by another user of the kernel) detaches earlier ones.
      const buffer = this.#kernel.memory.buffer;
      new Int16Array(buffer, src, n).set(raw.subarray(start, start + n));
      this.#kernel.decode_i16_f32(src, dst, n, encoding.scale_factor, encoding.add_offset, encoding._FillValue);
      result.set(new Float32Array(buffer, dst, n), start);
    }
    return result;
  }
}

function checkEncoding(encoding: CfEncoding): void {
  const { scale_factor, add_offset, _FillValue } = encoding;
  if (!Number.isFinite(scale_factor) || !Number.isFinite(add_offset)) {
    throw new ValidationError(`CF decode: scale_factor and add_offset must be finite (got ${scale_factor}, ${add_offset}).`);
  }
  if (!Number.isInteger(_FillValue) || _FillValue < -32768 || _FillValue > 32767) {
    throw new ValidationError(`CF decode: _FillValue ${_FillValue} is not an int16.`);
  }
}

let shared: CfDecoder | undefined;

/** Decodes with this thread's shared SIMD kernel, loading it on first use. */
export function cfDecode(raw: Int16Array, encoding: CfEncoding, out?: Float32Array): Float32Array {
  shared ??= new CfDecoder(sharedKernel());
  return shared.decode(raw, encoding, out);
}

/** Plain TypeScript reference for the kernel: float32 multiply then add, NaN for fill. */
export function cfDecodeReference(raw: Int16Array, encoding: CfEncoding): Float32Array {
  const out = new Float32Array(raw.length);
  const scale = Math.fround(encoding.scale_factor);
  const offset = Math.fround(encoding.add_offset);
  for (let i = 0; i < raw.length; i++) {
    const v = raw[i];
    out[i] = v === encoding._FillValue ? NaN : Math.fround(Math.fround(v * scale) + offset);
  }
  return out;
}
