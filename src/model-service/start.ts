/**
 * Starting the model service over a data directory: every sub-directory holding a dataset (consolidated metadata
 * `.zmetadata`) is opened and served under its dataset id. Used by `svc model-service` (own process) and by the API
 * when no `SVC_MODEL_SERVICE_URL` is configured (in-process, on a loopback port, same HTTP contract).
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DatasetError } from '../errors.js';
import { isDatasetId, type DatasetReader } from '../store/dataset-types.js';
import { openDataset } from '../store/zarr-reader.js';
import { createModelService, type ModelServiceOptions } from './model-service.js';
import { listenModelService, modelServiceHandler, type ModelServiceLog, type RunningModelService } from './server.js';

/**
 * Opens every dataset directly under `dataDir` (directories named like a dataset id and holding consolidated metadata),
 * in name order; a corrupt dataset fails the whole start.
 */
export async function openDatasets(dataDir: string): Promise<DatasetReader[]> {
  const names = await readdir(dataDir).catch((cause: unknown) => {
    throw new DatasetError(`The data directory ${dataDir} cannot be read.`, { cause });
  });
  const readers: DatasetReader[] = [];
  for (const name of names.filter(isDatasetId).sort()) {
    const dir = join(dataDir, name);
    const marker = await stat(join(dir, '.zmetadata')).catch(() => undefined);
    if (marker?.isFile()) readers.push(await openDataset(dir));
  }
  return readers;
}

/** Options of `startModelService`. */
export interface StartOptions extends Omit<ModelServiceOptions, 'datasets'> {
  readonly dataDir: string;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly log?: ModelServiceLog;
}

/** Opens the datasets of `dataDir` and serves them over HTTP. */
export async function startModelService(options: StartOptions): Promise<RunningModelService & { readonly datasets: readonly string[] }> {
  const { dataDir, host, port, log, ...rest } = options;
  const datasets = await openDatasets(dataDir);
  const service = await createModelService({ ...rest, datasets });
  const running = await listenModelService(modelServiceHandler(service, log), host, port);
  return { ...running, datasets: datasets.map((d) => d.attrs.dataset) };
}
