/**
 * Datasets as a compute thread sees them: the reader, the outdoor mask, the local calendar and the city references
 * written by `svc precompute`, opened once per thread and kept. The dataset id is checked before any path is built.
 */
import { createHash } from 'node:crypto';
import { isMainThread } from 'node:worker_threads';
import { NATIONWIDE } from '../../cities/catalog.js';
import { DamagedDataError, ValidationError } from '../../errors.js';
import type { StatisticsOptions } from '../../stats/statistics.js';
import { buildCalendar, type Calendar } from '../../stats/calendar.js';
import type { AggregateSection } from '../../store/aggregate-files.js';
import { directChunkCodec, type DirectChunkCodec } from '../../store/codecs.js';
import { locationJoin, readLocationText } from '../../store/data-location.js';
import { isDatasetId, type DatasetReader, type HourlyField } from '../../store/dataset-types.js';
import { openDataset } from '../../store/zarr-reader.js';
import { readerEncodings, recordsDigest } from '../aggregates/aggregate-records.js';
import { OutdoorMask } from './outdoor-mask.js';


/** City references computed by the whole-city precompute (absent until it ran). */
export interface CityReferences {
  /** Mean summer-night UTCI over every outdoor cell of the coverage area, °C. */
  readonly summer_night_mean_utci_c?: number;
  /** Mean good-air share over the documented reference locations. */
  readonly air_benchmark?: { readonly good_pct: number; readonly locations: number };
}

/** A dataset opened for computing. */
export interface ComputeDataset {
  readonly id: string;
  readonly reader: DatasetReader;
  /** The outdoor mask, read by window (never held whole: a byte per cell). */
  readonly outdoor: OutdoorMask;
  readonly calendar: Calendar;
  /** Nationwide datasets always sample the containing cell. */
  readonly nationwide: boolean;
  readonly references: CityReferences;
  /** Content version plus the references' version: what cached results depend on. */
  readonly version: string;
  /** Fields whose chunks decode straight into kernel memory, by their direct path (store/codecs.ts). */
  readonly directFields: ReadonlyMap<HourlyField, DirectChunkCodec>;
  /**
   * The stored aggregates samples can merge instead of decoding whole chunks: undefined when the store has none, or
   * when they were accumulated with another record layout or other thresholds than this kernel's (then every chunk
   * is decoded, and `staleAggregates` says why).
   */
  readonly aggregates: AggregateSection | undefined;
  readonly staleAggregates?: string;
}

/** The fields whose chunks are one shuffled-int16 zstd frame (as each array's consolidated `.zarray` says). */
function directDecodableFields(reader: DatasetReader): Map<HourlyField, DirectChunkCodec> {
  const direct = new Map<HourlyField, DirectChunkCodec>();
  for (const field of reader.fields) {
    const codec = directChunkCodec(reader.codecs(field));
    if (codec) direct.set(field, codec);
  }
  return direct;
}

/** Directory of a dataset's precomputed statistics grids and references. */
export function precomputedDir(dataDir: string, dataset: string): string {
  return locationJoin(dataDir, `${dataset}.precomputed`);
}

/**
 * Reads the references stored with the precomputed grids; none when the file does not exist (the precompute has not
 * run). Any other failure (unreadable, not JSON, not an object) is a `DamagedDataError` naming the file: dropping the
 * references silently would change answers (`benchmark`, `summer_night_vs_city_c`).
 */
export async function readReferences(dataDir: string, dataset: string): Promise<CityReferences> {
  const path = locationJoin(precomputedDir(dataDir, dataset), '.zattrs');
  const damaged = (why: string, cause?: unknown) => new DamagedDataError(
    `Dataset '${dataset}' is damaged: its precomputed city references (${dataset}.precomputed/.zattrs) ${why}.`,
    { dataset, path, cause },
  );
  let text: string | undefined;
  try {
    text = await readLocationText(path);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    throw damaged(`cannot be read (${code ?? (cause as Error).message})`, cause);
  }
  if (text === undefined) return {};
  let attrs: unknown;
  try {
    attrs = JSON.parse(text);
  } catch (cause) {
    throw damaged('are not valid JSON', cause);
  }
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(attrs)) throw damaged('are not a JSON object');
  if (attrs.references === undefined) return {};
  if (!isObject(attrs.references)) throw damaged("hold 'references' that are not an object");
  return attrs.references as CityReferences;
}

/** The statistics options (city references) of a dataset. */
export function referenceOptions(ds: ComputeDataset): StatisticsOptions {
  const r = ds.references;
  return {
    ...(r.air_benchmark ? { airBenchmark: r.air_benchmark } : {}),
    ...(r.summer_night_mean_utci_c !== undefined ? { citySummerNightMeanUtciC: r.summer_night_mean_utci_c } : {}),
  };
}

/**
 * Opens dataset `id` under `dataDir` as a compute thread sees it, uncached. Reads are synchronous in compute threads,
 * which have nothing else to do while they wait (docs/benchmarks.md); the main thread (which plans samples) serves
 * HTTP and must never block on a read — unless `syncReads` says otherwise (a benchmark replaying a thread's work).
 */
export async function openComputeDataset(dataDir: string, id: string, options: { syncReads?: boolean } = {}): Promise<ComputeDataset> {
  const reader = await openDataset(locationJoin(dataDir, id), { syncReads: options.syncReads ?? !isMainThread });
  if (reader.attrs.dataset !== id) {
    throw new DamagedDataError(`Dataset '${id}' is damaged: its directory holds dataset '${reader.attrs.dataset}'.`, {
      dataset: id, path: reader.dir,
    });
  }
  const outdoor = new OutdoorMask(reader);
  const calendar = buildCalendar(reader.attrs.reference_year, reader.hours, reader.attrs.timezone);
  const references = await readReferences(dataDir, id);
  const refVersion = Object.keys(references).length > 0
    ? `+r${createHash('sha256').update(JSON.stringify(references)).digest('hex').slice(0, 8)}`
    : '';
  const directFields = directDecodableFields(reader);
  const stored = reader.aggregates;
  const usable = stored !== undefined && stored.records === recordsDigest(reader.fields, readerEncodings(reader));
  return {
    id, reader, outdoor, calendar, references, directFields, nationwide: id === NATIONWIDE.dataset,
    version: `${reader.attrs.content_version}${refVersion}`,
    aggregates: usable ? stored : undefined,
    ...(stored && !usable ? {
      staleAggregates: `Dataset '${id}': its stored aggregates were accumulated with other thresholds or another record `
        + `layout (${stored.records}); queries decode every chunk until 'svc data aggregate' rewrites them.`,
    } : {}),
  };
}

const cache = new Map<string, Promise<ComputeDataset>>();

/**
 * The dataset as `computeDataset` gives it, reopened once when its stored aggregates are not of `generation` (the
 * requester's view is newer: `svc data aggregate` ran since this thread opened it). It may still differ afterwards;
 * the caller then decodes the planned blocks' chunks instead (kernel-run.ts).
 */
export async function datasetWithGeneration(dataDir: string, id: string, generation: string | undefined): Promise<ComputeDataset> {
  const ds = await computeDataset(dataDir, id);
  const key = `${dataDir}\u0000${id}\u0000${generation}`;
  if (generation === undefined || ds.aggregates?.generation === generation || reopenedFor.has(key)) return ds;
  // Once per requested generation: a requester with an older view than this thread's would otherwise reopen it
  // on every task.
  reopenedFor.add(key);
  cache.delete(`${dataDir}\u0000${id}`);
  return computeDataset(dataDir, id);
}

/** Generations a dataset was reopened for (`datasetWithGeneration`). */
const reopenedFor = new Set<string>();

/** The dataset `id` under `dataDir`, opened once per thread; a failed open is not cached. */
export function computeDataset(dataDir: string, id: string): Promise<ComputeDataset> {
  if (!isDatasetId(id)) return Promise.reject(new ValidationError(`Invalid dataset id '${id}'.`));
  const key = `${dataDir}\u0000${id}`;
  let entry = cache.get(key);
  if (!entry) {
    entry = openComputeDataset(dataDir, id);
    entry.catch(() => cache.delete(key));
    cache.set(key, entry);
  }
  return entry;
}
