/**
 * `npm run bench -- chunk-index`: what opening a store's chunk manifest costs as the store grows. Synthetic stores of
 * entries only (consolidated metadata and a chunk index, no chunk data) of 2,000 and 20 million entries — hourly
 * fields on a square chunk grid, the five aggregate levels, and a one-dimensional array that makes the count exact —
 * are kept under data/bench/chunk-index/ (the large one is 160 MB; reused while current). Each measurement runs in a
 * fresh child process (bench/chunk-index-child.ts) so its memory is its own: open time and resident memory after
 * opening, memory with the index opened again in four worker threads, and lookup latency. The JSON manifest the
 * index replaced is measured at 2,000 and 200,000 entries for comparison.
 *
 * `measureChunkIndex()` returns the `index` figures the scale ladder (issue 25) records as well.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AGGREGATE_LEVELS, type AggregateSection } from '../src/store/aggregate-files.js';
import { keyAt, placeSpaces, storeSpaces } from '../src/store/chunk-index-format.js';
import { writeChunkIndex } from '../src/store/chunk-index-writer.js';
import { manifestText } from '../src/store/chunk-manifest-json.js';
import type { ManifestEntry } from '../src/store/chunk-manifest.js';
import { PROJECT_ROOT } from '../src/util/paths.js';
import type { ChildMeasure } from './chunk-index-child.js';
import type { BenchResult } from './registry.js';

const execFileAsync = promisify(execFile);

/** Hourly fields of the synthetic stores (as many as a full dataset has). */
const FIELDS = 7;
/** Fresh processes per measurement; the median is reported. */
const REPEATS = 5;
/** Worker threads that open the index besides the main thread. */
const THREADS = 4;
/** Bump when the synthetic layout changes, so kept stores are rebuilt. */
const LAYOUT_VERSION = 2;

/** The `index` figures of the scale ladder. */
export interface IndexFigures {
  readonly entries: number;
  readonly open_ms: number;
  readonly open_rss_mb: number;
  readonly small_open_ms: number;
  readonly small_open_rss_mb: number;
}

/** Consolidated metadata of a synthetic store of exactly `entries` entries (aggregates included), and its section. */
function syntheticStore(entries: number): { metadata: Record<string, unknown>; aggregates: AggregateSection } {
  const aggregates: AggregateSection = { format: 1, generation: 'gbench', levels: [...AGGREGATE_LEVELS], records: 'bench' };
  const perPosition = FIELDS + AGGREGATE_LEVELS.reduce((n, l) => n + 1 / (l * l), 0);
  const side = Math.floor(Math.sqrt(entries / perPosition));
  const metadata: Record<string, unknown> = { '.zattrs': { content_version: 'bench-v1' } };
  for (let f = 0; f < FIELDS; f++) {
    metadata[`f${f}/.zarray`] = { shape: [8760, side * 32, side * 32], chunks: [8760, 32, 32], dimension_separator: '/' };
  }
  const used = placeSpaces(storeSpaces(metadata, aggregates), 1).blocks;
  if (used > entries) throw new Error(`${entries} entries are too few for a synthetic store`);
  metadata['pad/.zarray'] = { shape: [entries - used], chunks: [1], dimension_separator: '.' };
  return { metadata, aggregates };
}

/** Every entry of the store: deterministic sizes and checksums. */
function* syntheticEntries(metadata: Record<string, unknown>, aggregates: AggregateSection): Generator<ManifestEntry> {
  let i = 0;
  for (const space of storeSpaces(metadata, aggregates)) {
    const count = space.grid.reduce((n, g) => n * g, 1);
    for (let o = 0; o < count; o++, i++) yield [keyAt(space, o), 200_000 + (i % 9973) * 31, Math.imul(i, 2654435761) >>> 0];
  }
}

/** Builds (or reuses) the synthetic store of `entries` entries in `form` under data/bench/chunk-index/; returns its directory. */
async function syntheticDir(entries: number, form: 'index' | 'json'): Promise<string> {
  const dir = join(PROJECT_ROOT, 'data', 'bench', 'chunk-index', `${form}-${entries}`);
  const stamp = JSON.stringify({ layout: LAYOUT_VERSION, entries, form });
  if (await readFile(join(dir, '.bench-complete'), 'utf8').then((s) => s === stamp, () => false)) return dir;
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const { metadata, aggregates } = syntheticStore(entries);
  await writeFile(join(dir, '.zmetadata'), JSON.stringify({ metadata, zarr_consolidated_format: 1 }));
  const started = Date.now();
  if (form === 'index') await writeChunkIndex(dir, { metadata, contentVersion: 'bench-v1', aggregates }, syntheticEntries(metadata, aggregates));
  else await writeFile(join(dir, '.zmanifest'), manifestText('bench-v1', syntheticEntries(metadata, aggregates), aggregates));
  console.log(`built ${dir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await writeFile(join(dir, '.bench-complete'), stamp);
  return dir;
}

/** The median of `REPEATS` fresh-process measurements of the store at `dir`, figure by figure. */
async function measure(dir: string): Promise<ChildMeasure> {
  const runs: ChildMeasure[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const { stdout } = await execFileAsync(process.execPath, [join(PROJECT_ROOT, 'dist', 'bench', 'chunk-index-child.js'), dir, String(THREADS)], { maxBuffer: 1 << 20 });
    runs.push(JSON.parse(stdout.trim().split('\n').pop()!) as ChildMeasure);
  }
  const median = (key: keyof ChildMeasure) => runs.map((r) => r[key]).sort((a, b) => a - b)[REPEATS >> 1];
  return {
    open_ms: median('open_ms'), open_rss_mb: median('open_rss_mb'), threads_rss_mb: median('threads_rss_mb'),
    first_lookup_us: median('first_lookup_us'), lookup_p50_us: median('lookup_p50_us'), entries: runs[0].entries,
  };
}

/** Measures the chunk index at 2,000 and `entries` entries (20 million unless told); the figures the ladder records. */
export async function measureChunkIndex(entries = 20_000_000): Promise<{ figures: IndexFigures; small: ChildMeasure; large: ChildMeasure }> {
  const small = await measure(await syntheticDir(2_000, 'index'));
  const large = await measure(await syntheticDir(entries, 'index'));
  return {
    figures: { entries: large.entries, open_ms: large.open_ms, open_rss_mb: large.open_rss_mb, small_open_ms: small.open_ms, small_open_rss_mb: small.open_rss_mb },
    small, large,
  };
}

const row = (form: string, m: ChildMeasure) => ({
  form, entries: m.entries, 'open ms': m.open_ms, 'RSS MB': m.open_rss_mb, [`RSS MB, +${THREADS} threads`]: m.threads_rss_mb,
  'first lookup µs': m.first_lookup_us, 'lookup p50 µs': m.lookup_p50_us,
});

export async function run(): Promise<BenchResult> {
  const { figures, small, large } = await measureChunkIndex();
  const jsonSmall = await measure(await syntheticDir(2_000, 'json'));
  const jsonLarge = await measure(await syntheticDir(200_000, 'json'));
  const timeRatio = figures.open_ms / figures.small_open_ms;
  const rssDelta = figures.open_rss_mb - figures.small_open_rss_mb;
  return {
    name: 'chunk-index',
    title: `Opening a store's chunk manifest: binary index vs JSON (fresh process each, median of ${REPEATS}; page cache warm)`,
    columns: ['form', 'entries', 'open ms', 'RSS MB', `RSS MB, +${THREADS} threads`, 'first lookup µs', 'lookup p50 µs'],
    rows: [row('index', small), row('index', large), row('json', jsonSmall), row('json', jsonLarge)],
    notes: [
      `Index: ${large.entries.toLocaleString('en')} entries open in ${timeRatio.toFixed(2)}× the time of ${small.entries.toLocaleString('en')} (target ≤ 2×) `
        + `and ${rssDelta.toFixed(1)} MB more resident memory (target ≤ 64 MB).`,
      `With the index opened in ${THREADS} more threads, the large store's process holds ${(large.threads_rss_mb - small.threads_rss_mb).toFixed(1)} MB more than the small one's: threads share the entries through the page cache.`,
      `The JSON manifest grows with the entries: ${jsonLarge.open_ms.toFixed(1)} ms and ${jsonLarge.open_rss_mb} MB at ${jsonLarge.entries.toLocaleString('en')} entries.`,
    ],
    figures: { index: figures, index_detail: { small, large }, json: { small: jsonSmall, large: jsonLarge } },
  };
}
