/**
 * Starting the model service over a data directory: every sub-directory holding a dataset (src/store/data-dir.ts) is
 * opened and served under its dataset id. A damaged dataset is logged once and not served; the others are (degraded
 * mode, docs/operations.md). Used by `svc model-service` (own process) and by the API when no `SVC_MODEL_SERVICE_URL`
 * is configured (in-process, on a loopback port, same HTTP contract).
 */
import { DamageRegistry } from '../store/damage-registry.js';
import { openDatasets } from '../store/data-dir.js';
import { createModelService, type ModelServiceOptions } from './model-service.js';
import { listenModelService, modelServiceHandler, type ModelServiceLog, type RunningModelService } from './server.js';

/** Options of `startModelService`. */
export interface StartOptions extends Omit<ModelServiceOptions, 'datasets' | 'damaged'> {
  readonly dataDir: string;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly log?: ModelServiceLog;
}

/** Opens the datasets of `dataDir` and serves them over HTTP. */
export async function startModelService(options: StartOptions): Promise<RunningModelService & { readonly datasets: readonly string[] }> {
  const { dataDir, host, port, log, ...rest } = options;
  const { readers, damaged } = await openDatasets(dataDir);
  const damage = rest.damage ?? new DamageRegistry({
    now: rest.now, logger: { error: (obj, msg) => (log ?? ((m, e) => console.error(m, e)))(`model service: ${msg}`, obj) },
  });
  const service = await createModelService({ ...rest, damage, datasets: readers, damaged });
  const running = await listenModelService(modelServiceHandler(service, log), host, port);
  return { ...running, datasets: service.health().datasets };
}
