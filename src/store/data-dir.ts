/**
 * The datasets of a data directory: every sub-directory named like a dataset id that holds a Zarr group. Only absence
 * means "not a dataset"; a marker file that exists but cannot be examined makes the directory a dataset whose opening
 * then reports the problem. Opening them all keeps going past a damaged one, so the others can still be served.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DamagedDataError, DatasetError } from '../errors.js';
import { MANIFEST_FILE } from './chunk-manifest.js';
import { isDatasetId, type DatasetReader } from './dataset-types.js';
import { openDataset, type OpenDatasetOptions } from './zarr-reader.js';

/** Files whose presence makes a directory a dataset (any one of them). */
const MARKERS = ['.zmetadata', '.zgroup', MANIFEST_FILE] as const;

const isAbsence = (err: unknown) => ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '');

/** Whether `dir` is a dataset directory: it holds `.zmetadata`, `.zgroup` or `.zmanifest` (or one cannot be examined). */
export async function isStoreDir(dir: string): Promise<boolean> {
  for (const marker of MARKERS) {
    try {
      await stat(join(dir, marker));
      return true;
    } catch (err) {
      if (!isAbsence(err)) return true;
    }
  }
  return false;
}

/** Ids of the datasets directly under `dataDir`, sorted; an unreadable data directory is a `DatasetError`. */
export async function listDatasets(dataDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dataDir);
  } catch (cause) {
    throw new DatasetError(`The data directory ${dataDir} cannot be read (${(cause as NodeJS.ErrnoException).code ?? 'error'}).`, { cause });
  }
  const ids: string[] = [];
  for (const name of names.filter(isDatasetId).sort()) if (await isStoreDir(join(dataDir, name))) ids.push(name);
  return ids;
}

/** Datasets opened from a data directory, and those that could not be opened because they are damaged. */
export interface OpenedDatasets {
  readonly readers: DatasetReader[];
  readonly damaged: DamagedDataError[];
}

/** Opens every dataset under `dataDir` in id order; a damaged one is listed in `damaged` and the rest still open. */
export async function openDatasets(dataDir: string, options: OpenDatasetOptions = {}): Promise<OpenedDatasets> {
  const readers: DatasetReader[] = [];
  const damaged: DamagedDataError[] = [];
  for (const id of await listDatasets(dataDir)) {
    try {
      readers.push(await openDataset(join(dataDir, id), options));
    } catch (err) {
      if (!(err instanceof DamagedDataError)) throw err;
      damaged.push(err);
    }
  }
  return { readers, damaged };
}
