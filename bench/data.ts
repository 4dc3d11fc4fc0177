/**
 * `npm run bench -- data`: chunk read + decode throughput and compression ratio of every codec candidate, on
 * realistic whole-year chunks (8760 x 8 x 8 int16; half NO2-like, half wind-like). Each candidate's chunks are written
 * to disk, checked to round-trip, then read back and decoded in rounds (one warm-up round, then ROUNDS measured ones,
 * every candidate once per round); the reported speed is decoded bytes per CPU second of the median round (one core),
 * with the wall-clock speed alongside.
 * A last row reads the same chunks through the dataset reader (zarrita `getChunk`) with the writer's default codecs.
 * The default codec is the candidate that meets both speed targets with the best compression ratio.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChunkFileStore } from '../src/store/chunk-file-store.js';
import { createChunkCodec } from '../src/store/codecs.js';
import { DEFAULT_STORAGE_CODECS } from '../src/store/zarr-metadata.js';
import { candidateDecoder, CANDIDATES, type CodecCandidate } from './data-codecs.js';
import { benchChunks, BENCH_CHUNK } from './data-fields.js';
import { prepareReader } from './data-reader.js';
import type { BenchResult } from './registry.js';
import { mbPerSecond, measureOnce, median, runRounds, timedPass, type TimedPass } from './timing.js';

/** Chunks per pass, measured rounds after one warm-up round, and the generator seed. */
const CHUNKS = 32;
const ROUNDS = 7;
const SEED = 20230101;
/**
 * Targets, MB/s per core (int16 bytes per CPU second; 1 MB = 10^6 bytes): decoding is the cold-query path; encoding
 * must stay a small part of generating or importing a dataset (a whole-year 8 x 8 block in under 5 ms).
 */
const DECODE_TARGET = 500;
const ENCODE_TARGET = 250;

/** A candidate with its files on disk, its ratio and encode speed, and a pass that reads and decodes every file. */
interface Prepared extends TimedPass {
  readonly candidate: CodecCandidate;
  readonly ratio: number;
  readonly encode: number;
  decode?: number;
}

async function prepare(candidate: CodecCandidate, chunks: Int16Array[], dir: string): Promise<Prepared> {
  const codec = await createChunkCodec(candidate.codecs, 2);
  const rawBytes = chunks.reduce((s, c) => s + c.byteLength, 0);
  const encoded: Uint8Array[] = [];
  const { cpuMs } = await measureOnce(async () => {
    for (const chunk of chunks) encoded.push(await codec.encode(new Uint8Array(chunk.buffer)));
  });
  const stored = encoded.reduce((s, b) => s + b.length, 0);
  // Files are read the way the reader reads chunks (one `read` per file, see chunk-file-store.ts).
  const store = new ChunkFileStore(dir);
  const keys = encoded.map((_, i) => `/${candidate.label.replace(/\W+/g, '_')}-${i}` as const);
  await Promise.all(encoded.map((bytes, i) => writeFile(join(dir, keys[i].slice(1)), bytes)));
  const read = async (key: (typeof keys)[number]) => (await store.get(key)) as Uint8Array;
  const decode = await candidateDecoder(candidate);
  for (let i = 0; i < keys.length; i++) {
    const bytes = await decode(await read(keys[i]));
    const values = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
    if (values.length !== chunks[i].length || values.some((v, k) => v !== chunks[i][k])) {
      throw new Error(`${candidate.label}: chunk ${i} did not round-trip`);
    }
  }
  const pass = timedPass(async () => {
    for (const key of keys) await decode(await read(key));
  });
  return { ...pass, candidate, ratio: rawBytes / stored, encode: mbPerSecond(rawBytes, cpuMs) };
}

/** The candidate meeting both targets with the best compression ratio (equal ratios: the faster decode). */
function choose(results: readonly Prepared[]): Prepared | undefined {
  const eligible = results.filter((r) => r.candidate.codecs.compressor && r.decode! >= DECODE_TARGET && r.encode >= ENCODE_TARGET);
  return eligible.sort((a, b) => b.ratio - a.ratio || b.decode! - a.decode!)[0];
}

const sameCodecs = (c: CodecCandidate) => JSON.stringify(c.codecs) === JSON.stringify(DEFAULT_STORAGE_CODECS);

/** Runs the data benchmark. */
export async function run(): Promise<BenchResult> {
  const chunks = benchChunks(SEED, CHUNKS);
  const rawBytes = chunks.reduce((s, c) => s + c.byteLength, 0);
  const dir = await mkdtemp(join(tmpdir(), 'bench-data-'));
  try {
    const prepared: Prepared[] = [];
    for (const candidate of CANDIDATES) prepared.push(await prepare(candidate, chunks, dir));
    const reader = await prepareReader(chunks, join(dir, 'dataset'));
    const readerPass = timedPass(reader.pass);
    const syncPass = timedPass(reader.syncPass);
    await runRounds([...prepared, readerPass, syncPass], ROUNDS);
    for (const p of prepared) p.decode = mbPerSecond(rawBytes, median(p.cpuMs));
    const chosen = choose(prepared);
    const row = (codec: string, ratio: number, encode: number | '', cpuMs: number[], wallMs: number[]) => {
      const decode = mbPerSecond(rawBytes, median(cpuMs));
      return {
        codec, ratio: Number(ratio.toFixed(3)), 'encode MB/s': encode === '' ? '' : Math.round(encode),
        'decode MB/s': Math.round(decode), 'wall MB/s': Math.round(mbPerSecond(rawBytes, median(wallMs))),
        target: decode >= DECODE_TARGET ? 'yes' : 'no',
      };
    };
    const rows = prepared.map((p) => row(p.candidate.label, p.ratio, p.encode, p.cpuMs, p.wallMs));
    rows.push(row('default via reader (zarrita getChunk)', reader.ratio, '', readerPass.cpuMs, readerPass.wallMs));
    rows.push(row('default via reader, syncReads', reader.ratio, '', syncPass.cpuMs, syncPass.wallMs));
    const { hours, rows: r, cols } = BENCH_CHUNK;
    return {
      name: 'data',
      title: `Chunk read + decode: ${CHUNKS} chunks of ${hours}x${r}x${cols} int16 (${(rawBytes / 1e6).toFixed(1)} MB decoded), ` +
        `median of ${ROUNDS} rounds after a warm-up; MB/s per core = decoded MB per CPU second`,
      columns: ['codec', 'ratio', 'encode MB/s', 'decode MB/s', 'wall MB/s', 'target'],
      rows,
      notes: [
        `Rule: among candidates with decode >= ${DECODE_TARGET} and encode >= ${ENCODE_TARGET} MB/s per core, the best compression ratio.`,
        `Choice: ${chosen ? chosen.candidate.label : 'no candidate meets the targets'}; the writer default ` +
          `${chosen && sameCodecs(chosen.candidate) ? 'matches it' : 'DIFFERS'} (${JSON.stringify(DEFAULT_STORAGE_CODECS)}).`,
      ],
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
