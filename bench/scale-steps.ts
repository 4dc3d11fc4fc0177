/**
 * The steps of the scale ladder: a preset and a scale K (`demo:4` = the demo zone at 10 m over 4 times its area),
 * where each step's data live (`<root>/<preset>-x<K>/`), and the fixed place its queries ask about.
 */
import { lambert72ToWgs84 } from '../src/geo/crs.js';
import { roundCoord } from '../src/geo/round.js';
import { presetPlans } from '../src/model/presets.js';
import { scaledPlan, scaleTiling, SCALABLE_PRESETS, type ScalablePreset } from '../src/model/scaled-plans.js';
import { ValidationError } from '../src/errors.js';
import { join } from 'node:path';

/** One step of the ladder. */
export interface LadderStep {
  readonly preset: ScalablePreset;
  readonly scale: number;
}

/** The steps run when none are chosen. */
export const DEFAULT_STEPS = 'demo:1,demo:4,demo:16,bench:1,bench:4,bench:16';

/** Parses `demo:1,bench:4`: presets among demo and bench, K a whole number the generator accepts. */
export function parseSteps(text: string): LadderStep[] {
  const steps = text.split(',').map((part) => {
    const match = /^(\w+):(\d+)$/.exec(part.trim());
    const preset = match?.[1] as ScalablePreset | undefined;
    if (!match || !SCALABLE_PRESETS.includes(preset!)) {
      throw new ValidationError(`--steps takes preset:K pairs such as demo:1,bench:4 (presets: ${SCALABLE_PRESETS.join(', ')}); got '${part}'.`);
    }
    const scale = Number(match[2]);
    scaleTiling(scale);
    return { preset: preset!, scale };
  });
  const seen = new Set<string>();
  return steps.filter((s) => !seen.has(stepName(s)) && seen.add(stepName(s)));
}

/** `demo-x4`. */
export function stepName(step: LadderStep): string {
  return `${step.preset}-x${step.scale}`;
}

/** The data directory of a step under the ladder's root. */
export function stepDir(root: string, step: LadderStep): string {
  return join(root, stepName(step));
}

/** Grid cells of a step. */
export function stepCells(step: LadderStep): number {
  const { rect, resolution_m: res } = scaledPlan(step.preset, step.scale);
  return Math.round((rect.xmax - rect.xmin) / res) * Math.round((rect.ymax - rect.ymin) / res);
}

/**
 * The place every step of a preset asks about: the centre of the preset's own rectangle (the south-west tile, the
 * same surroundings at every K), rounded as the API rounds.
 */
export function baseCentre(preset: ScalablePreset): { lat: number; lon: number } {
  const { rect } = presetPlans(preset).find((p) => p.model === 'street')!;
  const [lon, lat] = lambert72ToWgs84((rect.xmin + rect.xmax) / 2, (rect.ymin + rect.ymax) / 2);
  return { lat: roundCoord(lat), lon: roundCoord(lon) };
}
