/**
 * The datasets of a data directory: every sub-directory named like a dataset id that holds a Zarr group. Only absence
 * means "not a dataset"; a marker file that exists but cannot be examined makes the directory a dataset whose opening
 * then reports the problem. Opening them all keeps going past a damaged one, so the others can still be served.
 * A location that cannot be listed (HTTP: data-location.ts) is asked about the ids its caller expects instead.
 */
import { DamagedDataError, DatasetError } from '../errors.js';
import { MANIFEST_FILE } from './chunk-manifest.js';
import { dataLocation, type DataLocation } from './data-location.js';
import { isDatasetId, type DatasetReader } from './dataset-types.js';
import { openDataset, type OpenDatasetOptions } from './zarr-reader.js';

/** Files whose presence makes a directory a dataset (any one of them). */
const MARKERS = ['.zmetadata', '.zgroup', MANIFEST_FILE] as const;

/** Whether `dir` is a dataset directory: it holds `.zmetadata`, `.zgroup` or `.zmanifest` (or one cannot be examined). */
export async function isStoreDir(dir: string | DataLocation): Promise<boolean> {
  const store = dataLocation(dir);
  for (const marker of MARKERS) {
    try {
      if (await store.join(marker).exists()) return true;
    } catch {
      return true;
    }
  }
  return false;
}

/**
 * Ids of the datasets directly under `dataDir`, sorted; an unreadable data directory is a `DatasetError`. Where the
 * location cannot be listed, the `expected` ids that hold a store are the datasets (none expected: a `DatasetError`).
 */
export async function listDatasets(dataDir: string | DataLocation, expected?: readonly string[]): Promise<string[]> {
  const location = dataLocation(dataDir);
  let names: string[] | undefined;
  try {
    names = await location.list();
  } catch (cause) {
    throw new DatasetError(`The data directory ${location.href} cannot be read (${(cause as NodeJS.ErrnoException).code ?? 'error'}).`, { cause });
  }
  names ??= expected === undefined ? undefined : [...expected];
  if (names === undefined) throw new DatasetError(`The data location ${location.href} cannot be listed; its datasets must be named.`);
  const ids: string[] = [];
  for (const name of names.filter(isDatasetId).sort()) if (await isStoreDir(location.join(name))) ids.push(name);
  return ids;
}

/** Datasets opened from a data directory, and those that could not be opened because they are damaged. */
export interface OpenedDatasets {
  readonly readers: DatasetReader[];
  readonly damaged: DamagedDataError[];
}

/** Opens every dataset under `dataDir` in id order; a damaged one is listed in `damaged` and the rest still open. */
export async function openDatasets(dataDir: string | DataLocation, options: OpenDatasetOptions = {}): Promise<OpenedDatasets> {
  const readers: DatasetReader[] = [];
  const damaged: DamagedDataError[] = [];
  const location = dataLocation(dataDir);
  for (const id of await listDatasets(location)) {
    try {
      readers.push(await openDataset(location.join(id), options));
    } catch (err) {
      if (!(err instanceof DamagedDataError)) throw err;
      damaged.push(err);
    }
  }
  return { readers, damaged };
}
