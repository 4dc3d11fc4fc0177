/**
 * Real-shaped int16 chunks for the codec benchmark: whole-year chunks (8760 × 8 × 8) of every hourly field, cut from
 * the stand-in model's 1 m benchmark block (`svc data generate --bench`: a square framed by buildings and crossed by
 * two streets, with façade distances, canyon vortices, shade, corner streams and fine structure a few metres long).
 * Every cell of every chunk taken here is outdoor and has a series of its own, as in a street-level model's output;
 * building cells, which hold only fill values and compress to nothing, would flatter every codec alike.
 */
import { planFeatures, planSpec, REFERENCE_YEAR } from '../src/model/generate.js';
import { fillChunk } from '../src/model/cell-physics.js';
import { buildDrivers } from '../src/model/drivers.js';
import { generateMeteorology } from '../src/model/meteorology.js';
import { presetPlans } from '../src/model/presets.js';
import { buildUtciGrid } from '../src/model/utci-grid.js';
import type { HourlyField } from '../src/store/dataset-types.js';

/** Shape of a benchmark chunk. */
export const BENCH_CHUNK = { hours: 8760, rows: 8, cols: 8 } as const;

/** One whole-year chunk of one field. */
export interface FieldChunk {
  readonly field: HourlyField;
  readonly data: Int16Array;
}

/** Chunk positions inside the square (rows and columns 2–13 of the 16 × 16 chunk grid are all outdoor). */
const POSITIONS: readonly (readonly [number, number])[] = [[2, 2], [3, 10], [5, 6], [7, 7], [8, 13], [10, 4], [12, 9], [13, 13]];

/** The chunks of every field at the first `positions` positions of the benchmark block generated with `seed`. */
export function benchChunks(seed: number, positions: number): FieldChunk[] {
  const plan = presetPlans('bench')[0];
  const met = generateMeteorology({ year: REFERENCE_YEAR, seed, lat: 50.7985, lon: 4.3587 });
  const drivers = buildDrivers(met, 'Europe/Brussels');
  const spec = planSpec(plan, seed, met.hours, '');
  const features = planFeatures(plan, spec.grid, seed);
  const inputs = { grid: spec.grid, chunk: spec.chunk, features, drivers, utci: buildUtciGrid(drivers.ta, drivers.rh) };
  const out: FieldChunk[] = [];
  for (const [row, col] of POSITIONS.slice(0, positions)) {
    for (const [field, data] of fillChunk(inputs, plan.fields, row, col)) out.push({ field, data });
  }
  return out;
}
