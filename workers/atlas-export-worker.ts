/**
 * Entry of the thread `svc atlas export` runs in (src/atlas/atlas-thread.ts starts it, with a bounded heap): exports
 * the city's atlas and posts the result, or the failure as data (errors.ts `errorToData`, with the stack of an
 * unexpected one), then ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { exportAtlas } from '../src/atlas/atlas-export.js';
import type { AtlasThreadData, AtlasThreadReply } from '../src/atlas/atlas-thread.js';
import { getCity } from '../src/cities/catalog.js';
import { errorToData, ValidationError } from '../src/errors.js';

const { dataDir, cityId, outDir } = workerData as AtlasThreadData;
let reply: AtlasThreadReply;
try {
  const city = getCity(cityId);
  if (city === undefined) throw new ValidationError(`Unknown city '${cityId}'.`);
  reply = { ok: true, result: await exportAtlas(dataDir, city, outDir) };
} catch (err) {
  reply = { ok: false, error: errorToData(err), ...(err instanceof Error && err.stack !== undefined ? { stack: err.stack } : {}) };
}
parentPort!.postMessage(reply);
