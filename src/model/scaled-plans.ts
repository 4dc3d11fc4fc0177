/**
 * Scaled datasets (`svc data generate --demo|--bench|--fixture --scale K`): the street-level model of a preset over K times its
 * area, at the same resolution and with the same physics, for measuring how each stage's cost grows with the area
 * (`npm run bench -- scale`, docs/scaling.md).
 *
 * A scaled dataset tiles the preset's rectangle K times: `cols × rows` copies (`cols × rows = K`, as square as K
 * allows: 4 → 2 × 2, 16 → 4 × 4), the preset's own rectangle being the south-west tile, so the grid grows east and
 * north and its corners stay on the 40 m zone lattice. Every tile holds the same urban fabric (the preset's cell
 * features repeated), so the outdoor share, and with it every per-cell cost, is the same at every K, and a location at
 * the same place in its tile sees the same surroundings at every K.
 *
 * It is written under the id of the city's answering dataset (`brussels_extended`) so that `svc precompute --city
 * brussels`, `svc atlas export`, `svc serve` and the queries use it as they are; the city's zone (its boundary and
 * coverage) does not change: queries answer inside both the zone and the dataset's extent (elsewhere: 422 outside
 * the extent, or the nationwide dataset outside the zone), while precompute, the atlas and the map layers cover the
 * whole extent. Only the street-level dataset is written; the nationwide one does not grow with K.
 */
import { ValidationError } from '../errors.js';
import { presetPlans, type DatasetPlan, type Preset } from './presets.js';

/** The dataset id a scaled dataset is written under: the Brussels street-level model. */
export const SCALED_DATASET = 'brussels_extended';

/** Presets that have a scaled form: every preset with a street-level dataset (the fixture's is for tests). */
export const SCALABLE_PRESETS = ['demo', 'bench', 'fixture'] as const;
export type ScalablePreset = (typeof SCALABLE_PRESETS)[number];

/** Largest K accepted: 4,096 times the demo zone is about 7,900 km², a country's worth of 10 m cells. */
const MAX_SCALE = 4096;

/** How a scaled rectangle repeats the preset's: columns and rows of tiles. */
export interface ScaleTiling {
  readonly cols: number;
  readonly rows: number;
}

/** Columns and rows of `k` tiles, as square as `k` allows (rows = the largest divisor ≤ √k). */
export function scaleTiling(k: number): ScaleTiling {
  if (!Number.isSafeInteger(k) || k < 1 || k > MAX_SCALE) {
    throw new ValidationError(`--scale must be a whole number from 1 to ${MAX_SCALE}, got ${k}.`);
  }
  let rows = Math.floor(Math.sqrt(k));
  while (k % rows !== 0) rows--;
  return { cols: k / rows, rows };
}

/** The plan of the scaled dataset of `preset` at `k` (see the top of this file). */
export function scaledPlan(preset: ScalablePreset, k: number): DatasetPlan {
  const base = presetPlans(preset).find((p) => p.model === 'street');
  if (base === undefined) throw new ValidationError(`Preset '${preset}' has no street-level dataset to scale.`);
  const tiling = scaleTiling(k);
  const { xmin, ymin, xmax, ymax } = base.rect;
  return {
    ...base,
    id: SCALED_DATASET,
    title: `${base.title}, ${k} times its area (${tiling.cols} x ${tiling.rows} tiles)`,
    rect: { xmin, ymin, xmax: xmin + (xmax - xmin) * tiling.cols, ymax: ymin + (ymax - ymin) * tiling.rows },
    tiling: { ...tiling, base: base.rect },
  };
}

/** Whether `preset` has a scaled form; narrows the type. */
export function isScalable(preset: Preset): preset is ScalablePreset {
  return (SCALABLE_PRESETS as readonly string[]).includes(preset);
}
