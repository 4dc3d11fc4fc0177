/**
 * Where tiles are drawn and ranges computed: in a compute thread of the local pool (the server; tasks `map-tile` and
 * `map-range` of map-tasks.ts, slices passed as SharedArrayBuffer views, so nothing is copied), or in the
 * calling thread (tests, tools). Either way the same pure functions run (tile-render.ts, thermal-range.ts), and the
 * event loop of the server does no drawing.
 */
import { MAP_RANGE_TASK, MAP_TILE_TASK } from './map-tasks.js';
import { renderEncodedTile, type EncodedTile, type TileJob } from './tile-drawing.js';
import { thermalRange, type ValueRange } from './thermal-range.js';
import type { PlannedCompute } from '../compute/planned-compute.js';

/** Draws tiles and computes published ranges. */
export interface TileRenderer {
  /** The encoded tile, raw and gzipped; zero bytes for an empty tile. */
  render(job: TileJob): Promise<EncodedTile>;
  /** The relative-scale range of a UTCI slice; undefined when no cell has a value. */
  range(values: Float32Array): Promise<ValueRange | undefined>;
}

/** Draws in the calling thread. */
export const inProcessRenderer: TileRenderer = {
  render: async (job) => renderEncodedTile(job),
  range: async (values) => thermalRange(values),
};

/** Draws in the compute threads of `compute` (the local pool). */
export function poolRenderer(compute: Pick<PlannedCompute, 'runTask'>): TileRenderer {
  return {
    render: (job) => compute.runTask(MAP_TILE_TASK, { kind: 'map-tile', job }),
    async range(values) {
      return (await compute.runTask(MAP_RANGE_TASK, { kind: 'map-range', values })) ?? undefined;
    },
  };
}
