/**
 * The map's family of compute-thread tasks (compute/tasks/task-registry.ts): drawing a vector tile and computing the
 * relative-scale range of one UTCI slice, so the server's event loop does no drawing. Registered by the compute
 * thread's entry (workers/compute-worker.ts); a cluster worker serves them too (docs/cluster.md).
 */
import { defineTask } from '../compute/tasks/task-definition.js';
import type { TaskFamily } from '../compute/tasks/task-registry.js';
import { renderEncodedTile, type TileJob } from './tile-drawing.js';
import { thermalRange } from './thermal-range.js';

/** Draws one vector tile (tile-drawing.ts); replies with its bytes, raw and gzipped (zero bytes: empty tile). */
export interface MapTileTask {
  readonly kind: 'map-tile';
  readonly job: TileJob;
}

/** The relative-scale range of one UTCI slice (thermal-range.ts); replies `{min, max}` or null. */
export interface MapRangeTask {
  readonly kind: 'map-range';
  /** A view of a SharedArrayBuffer. */
  readonly values: Float32Array;
}

/** Draws one vector tile in a compute thread. */
export const MAP_TILE_TASK = defineTask('map-tile', (task: MapTileTask) => renderEncodedTile(task.job));

/** The relative-scale range of one UTCI slice, in a compute thread. */
export const MAP_RANGE_TASK = defineTask('map-range', (task: MapRangeTask) => thermalRange(task.values) ?? null);

/** The map's family, as the compute thread registers it. */
export const MAP_TASKS: TaskFamily = [MAP_TILE_TASK, MAP_RANGE_TASK];
