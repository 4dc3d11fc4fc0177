/**
 * The C baseline of the statistics kernel (bench/native/stats_kernel.c: the same algorithm with SSE4.1 intrinsics,
 * `cc -O3`, no AVX) and the memory-bandwidth ceiling it measures (streaming 512 MiB). It runs in a child process after
 * the interleaved rounds, as a reference row; its checksum of the hour records must equal the release build's.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rawThresholds } from '../../src/compute/kernels/kernel-thresholds.js';
import { FIELD_ENCODINGS, HOURLY_FIELDS } from '../../src/store/dataset-types.js';
import { PROJECT_ROOT } from '../../src/util/paths.js';
import { KERNEL_CHUNK, type FieldChunks } from '../kernels-data.js';
import { median } from './statistics.js';

/** Outcome of the C baseline: rates in M cell-hours per CPU-second, or why it did not run. */
export interface NativeOutcome {
  readonly rates: number[];
  readonly bandwidthGBs?: number;
  readonly checksum?: string | undefined;
  readonly compiler?: string | undefined;
  readonly unavailable?: string | undefined;
}

/** 64-bit polynomial checksum of 32-bit words, as the C program computes it. */
export function recordsChecksum(words: Uint32Array): string {
  let sum = 0n;
  for (const w of words) sum = (sum * 31n + BigInt(w)) & 0xffff_ffff_ffff_ffffn;
  return sum.toString();
}

/** The system C compiler's version line, or undefined. */
function compilerVersion(): string | undefined {
  try {
    return execFileSync('cc', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0];
  } catch {
    return undefined;
  }
}

/** Compiles the C baseline when missing or older than its source; the binary, or why not. */
function nativeBinary(): { bin?: string; error?: string } {
  const src = join(PROJECT_ROOT, 'bench', 'native', 'stats_kernel.c');
  const dir = join(PROJECT_ROOT, 'build', 'native');
  const bin = join(dir, 'stats_kernel');
  if (existsSync(bin) && statSync(bin).mtimeMs >= statSync(src).mtimeMs) return { bin };
  try {
    mkdirSync(dir, { recursive: true });
    execFileSync('cc', ['-O3', '-msse4.1', '-mno-avx', '-std=c11', '-Wall', '-o', bin, src], { stdio: 'pipe' });
    return { bin };
  } catch (err) {
    return { error: `cc failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}` };
  }
}

/** The C program's input: header, thresholds, mask, then every chunk's six fields. */
function nativeInput(chunks: readonly FieldChunks[], mask: Uint8Array): Buffer {
  const head = new Int32Array(3 + 36);
  head.set([KERNEL_CHUNK.hours, KERNEL_CHUNK.cells, chunks.length]);
  head.set(rawThresholds(HOURLY_FIELDS, FIELD_ENCODINGS).table, 3);
  const padded = new Uint8Array((mask.length + 3) & ~3);
  padded.set(mask);
  const parts: Uint8Array[] = [new Uint8Array(head.buffer), padded];
  for (const chunk of chunks) for (const f of HOURLY_FIELDS) parts.push(new Uint8Array(chunk[f].buffer, chunk[f].byteOffset, chunk[f].byteLength));
  return Buffer.concat(parts);
}

/** Runs the C baseline `runs` times over `chunks` (rounds of 4 inside the program). */
export function runNative(chunks: readonly FieldChunks[], mask: Uint8Array, runs: number): NativeOutcome {
  const compiler = compilerVersion();
  const native = nativeBinary();
  if (native.bin === undefined) return { rates: [], compiler, unavailable: native.error };
  const dir = mkdtempSync(join(tmpdir(), 'bench-kernels-'));
  const input = join(dir, 'input.bin');
  const cellHours = KERNEL_CHUNK.hours * KERNEL_CHUNK.cells;
  try {
    writeFileSync(input, nativeInput(chunks, mask));
    const rates: number[] = [];
    const bandwidth: number[] = [];
    let checksum: string | undefined;
    for (let i = 0; i < runs; i++) {
      const out = JSON.parse(execFileSync(native.bin, [input, '4'], { encoding: 'utf8' })) as
        { checksum: string; cpu_ms_per_chunk: number[]; bandwidth_gb_s: number };
      checksum = out.checksum;
      rates.push(...out.cpu_ms_per_chunk.map((ms) => cellHours / 1e6 / (ms / 1e3)));
      bandwidth.push(out.bandwidth_gb_s);
    }
    return { rates, bandwidthGBs: median(bandwidth), checksum, compiler };
  } catch (err) {
    return { rates: [], compiler, unavailable: `its binary failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
