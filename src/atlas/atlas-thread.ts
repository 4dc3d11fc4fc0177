/**
 * `svc atlas export` in a thread of its own with a bounded heap (workers/atlas-export-worker.ts). The export's live
 * JavaScript objects are small (a tile's windows and features, the archive's directory: a few dozen bytes a tile);
 * its large buffers (bands, tiles) live outside the heap. What grew with the city was garbage: V8 lets the heap grow
 * with the rate of allocation before it collects, so the process's peak followed the number of tiles drawn. A heap
 * capped at ATLAS_HEAP collects sooner and holds the export's memory at the cap whatever the city's size
 * (docs/atlas.md, "Memory"). A failure comes back as the error the export threw (its class rebuilt from data).
 */
import { Worker } from 'node:worker_threads';
import { errorFromData, ServiceError, type SerializedError } from '../errors.js';
import { workerPath } from '../util/paths.js';
import type { AtlasExport } from './atlas-export.js';

/**
 * The export thread's heap, MiB: a young generation of 1 MiB (where a tile's garbage is born and dies: collected
 * often, about a tenth more CPU) and an old generation of 48 MiB. The old generation holds the archive's directory
 * (each tile's address, offset and length, and each distinct content's SHA-256: about 250 bytes a tile at most),
 * room for some 150,000 tiles: half as much again as the 93,000 of a 1 m model of the Brussels-Capital Region at
 * zooms 15–19. Measured on the scale ladder's 1 m steps: peak 148 and 154 MB at 4× and 16× (1.04×), against 147
 * and 186 MB (1.26×) with V8's default heap.
 */
const ATLAS_HEAP = { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 48 } as const;

/** What the thread is given. */
export interface AtlasThreadData {
  readonly dataDir: string;
  readonly cityId: string;
  readonly outDir: string;
}

/** What the thread posts back. */
export type AtlasThreadReply =
  | { readonly ok: true; readonly result: AtlasExport }
  | { readonly ok: false; readonly error: SerializedError; readonly stack?: string };

/** The failure a reply carries: the service error it was, or for an unexpected one an Error with the thread's stack. */
function replyError(reply: Extract<AtlasThreadReply, { ok: false }>): Error {
  const error = errorFromData(reply.error);
  if (error.code !== 'internal_error') return error;
  const unexpected = new Error(reply.error.message);
  if (reply.stack !== undefined) unexpected.stack = reply.stack;
  return unexpected;
}

/** Exports city `cityId`'s atlas from `dataDir` into `outDir` in a thread with a bounded heap. */
export function exportAtlasInThread(dataDir: string, cityId: string, outDir: string): Promise<AtlasExport> {
  const worker = new Worker(workerPath('atlas-export-worker'), {
    workerData: { dataDir, cityId, outDir } satisfies AtlasThreadData, resourceLimits: ATLAS_HEAP,
  });
  return new Promise((resolve, reject) => {
    let reply: AtlasThreadReply | undefined;
    let failure: Error | undefined;
    worker.on('message', (message: AtlasThreadReply) => { reply = message; });
    worker.on('error', (err: Error & { code?: string }) => {
      failure = err.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new ServiceError('internal_error', `The atlas export needed more than the ${ATLAS_HEAP.maxOldGenerationSizeMb} MiB heap its thread is given (src/atlas/atlas-thread.ts).`, { cause: err })
        : err;
    });
    worker.on('exit', (code) => {
      if (reply?.ok === true) resolve(reply.result);
      else if (reply !== undefined) reject(replyError(reply));
      else reject(failure ?? new Error(`The atlas export thread ended (exit code ${code}) without an answer.`));
    });
  });
}
