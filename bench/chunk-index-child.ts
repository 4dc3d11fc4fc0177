/**
 * One measurement of the chunk-index benchmark (bench/chunk-index.ts forks it, so each runs in a fresh process and its
 * memory is its own): `node dist/bench/chunk-index-child.js <storeDir> <threads>`. It opens the store's chunk manifest
 * as opening a store does (read it, check it covers the arrays of the consolidated metadata), in the main thread and
 * then in `threads` worker threads at once, and looks up random keys. Prints one JSON line (`ChildMeasure`).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { keyAt, storeSpaces } from '../src/store/chunk-index-format.js';
import { checkManifestCovers, readManifest, type ChunkManifest } from '../src/store/chunk-manifest.js';

/** What one child reports. */
export interface ChildMeasure {
  /** Opening the manifest (read, checks, coverage of the arrays), milliseconds. */
  readonly open_ms: number;
  /** Resident memory of the process once the manifest is open, MiB. */
  readonly open_rss_mb: number;
  /** The same with the manifest opened again in each worker thread as well (threads share nothing but the page cache). */
  readonly threads_rss_mb: number;
  /** The first lookup after opening, microseconds. */
  readonly first_lookup_us: number;
  /** Median of lookups of random keys (mostly blocks not read before), microseconds. */
  readonly lookup_p50_us: number;
  readonly entries: number;
}

const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

/** Opens the manifest of `dir` as `openStore` does; returns it and the milliseconds it took. */
async function openTimed(dir: string): Promise<{ manifest: ChunkManifest; ms: number }> {
  const metadata = (JSON.parse(await readFile(join(dir, '.zmetadata'), 'utf8')) as { metadata: Record<string, unknown> }).metadata;
  const version = String((metadata['.zattrs'] as { content_version: string }).content_version);
  const t0 = performance.now();
  const manifest = (await readManifest(dir, 'bench'))!;
  checkManifestCovers(manifest, metadata, version, 'bench', dir);
  return { manifest, ms: performance.now() - t0 };
}

/** Keys spread over the whole store (a deterministic sequence). */
function sampleKeys(metadata: Readonly<Record<string, unknown>>, manifest: ChunkManifest, count: number): string[] {
  const spaces = storeSpaces(metadata, manifest.aggregates);
  const keys: string[] = [];
  let x = 12345;
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    const space = spaces[x % spaces.length];
    const size = space.grid.reduce((n, g) => n * g, 1);
    x = (x * 1103515245 + 12345) >>> 0;
    keys.push(keyAt(space, x % size));
  }
  return keys;
}

/** Opens the manifest in `threads` worker threads running this module, each keeping it open (as a compute thread). */
async function inThreads(dir: string, threads: number): Promise<void> {
  const workers = Array.from({ length: threads }, () => new Worker(new URL(import.meta.url), { workerData: { dir } }));
  await Promise.all(workers.map((w) => new Promise((resolve, reject) => { w.once('message', resolve); w.once('error', reject); })));
}

/** In a worker thread: opens the manifest, keeps it reachable and says so; stays alive until the process exits. */
async function openInThread(dir: string): Promise<void> {
  const opened = await openTimed(dir);
  (globalThis as { keep?: unknown }).keep = opened;
  parentPort!.postMessage('open');
  setInterval(() => {}, 1000);
}

async function main(dir: string, threads: number): Promise<ChildMeasure> {
  const { manifest, ms } = await openTimed(dir);
  const openRss = process.memoryUsage().rss;
  const metadata = (JSON.parse(await readFile(join(dir, '.zmetadata'), 'utf8')) as { metadata: Record<string, unknown> }).metadata;
  const keys = sampleKeys(metadata, manifest, 201);
  let t = performance.now();
  if (manifest.entry(keys[0]) === undefined) throw new Error(`${keys[0]} is not listed`);
  const first = (performance.now() - t) * 1000;
  const times: number[] = [];
  for (const key of keys.slice(1)) {
    t = performance.now();
    if (manifest.entry(key) === undefined) throw new Error(`${key} is not listed`);
    times.push((performance.now() - t) * 1000);
  }
  times.sort((a, b) => a - b);
  await inThreads(dir, threads);
  return {
    open_ms: Math.round(ms * 1000) / 1000, open_rss_mb: mib(openRss), threads_rss_mb: mib(process.memoryUsage().rss),
    first_lookup_us: Math.round(first), lookup_p50_us: Math.round(times[times.length >> 1]), entries: manifest.size,
  };
}

if (isMainThread && process.argv[1]?.endsWith('chunk-index-child.js') && process.argv.length >= 4) {
  main(process.argv[2], Number(process.argv[3])).then(
    (m) => { console.log(JSON.stringify(m)); process.exit(0); },
    (err: unknown) => { console.error(err instanceof Error ? err.stack : String(err)); process.exit(1); },
  );
}
if (!isMainThread && (workerData as { dir?: unknown } | null)?.dir !== undefined) {
  void openInThread((workerData as { dir: string }).dir);
}
