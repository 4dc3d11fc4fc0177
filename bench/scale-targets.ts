/**
 * The scale ladder's targets (issue: cost that grows linearly, memory that stays flat), each a ratio between steps of
 * one preset from one run:
 * - cost per cell of every stage at 16× within 1.15× of its cost at 1×;
 * - peak memory of every process and thread at 16× within 1.1× of 4×;
 * - truly cold query and tile latency at 16× within 1.15× of 1×, tiles like for like: the 99th percentile of cold
 *   requests for the interior tiles of the deepest zoom (full tiles, the same work at every extent; bench/scale.ts);
 * - every tile at every zoom ≤ 500 KB (every step).
 * A target whose steps did not run is reported as not evaluated (`pass: null`), never as met.
 */

/** The figures of one step that targets read (see bench/scale.ts for the whole object). */
export type StepFigures = Readonly<Record<string, unknown>> & { readonly preset: string; readonly scale: number };

/** One evaluated target. */
export interface TargetCheck {
  readonly target: string;
  readonly preset: string;
  readonly figure: string;
  /** Larger step's figure over the smaller step's; null when a step or the figure is missing. */
  readonly ratio: number | null;
  readonly limit: number;
  readonly pass: boolean | null;
}

/** Stages whose cost per cell and peak memory the targets judge. */
export const COST_STAGES = ['generate', 'aggregate', 'open', 'precompute', 'export'] as const;
/** Memory figures judged flat: each stage's process, a compute thread's share, the serving process. */
const MEMORY_FIGURES = [...COST_STAGES.map((s) => `${s}_peak_rss_mb`), 'open_thread_rss_mb', 'serve_rss_mb'];
const COST_FIGURES = COST_STAGES.map((s) => `${s}_cpu_s_per_mcell`);
const LATENCY_FIGURES = ['truly_cold_point_ms', 'truly_cold_radius50_ms', 'tile_deep_p99_ms'];
const TILE_LIMIT_KB = 500;

function ratioCheck(steps: readonly StepFigures[], target: string, preset: string, figure: string, from: number, to: number, limit: number): TargetCheck {
  const a = steps.find((s) => s.preset === preset && s.scale === from)?.[figure];
  const b = steps.find((s) => s.preset === preset && s.scale === to)?.[figure];
  const ratio = typeof a === 'number' && typeof b === 'number' && a > 0 ? b / a : null;
  return { target, preset, figure, ratio, limit, pass: ratio === null ? null : ratio <= limit };
}

/** Every target over `steps`, for each preset that ran. */
export function evaluateTargets(steps: readonly StepFigures[]): TargetCheck[] {
  const presets = [...new Set(steps.map((s) => s.preset))];
  const checks: TargetCheck[] = [];
  for (const preset of presets) {
    for (const f of COST_FIGURES) checks.push(ratioCheck(steps, 'cost per cell, 16x vs 1x', preset, f, 1, 16, 1.15));
    for (const f of MEMORY_FIGURES) checks.push(ratioCheck(steps, 'peak memory, 16x vs 4x', preset, f, 4, 16, 1.1));
    for (const f of LATENCY_FIGURES) checks.push(ratioCheck(steps, 'latency, 16x vs 1x', preset, f, 1, 16, 1.15));
    for (const step of steps.filter((s) => s.preset === preset)) {
      const kb = step.tile_max_kb;
      checks.push({
        target: `every tile <= ${TILE_LIMIT_KB} KB`, preset, figure: `tile_max_kb (x${step.scale})`,
        ratio: null, limit: TILE_LIMIT_KB, pass: typeof kb === 'number' ? kb <= TILE_LIMIT_KB : null,
      });
    }
  }
  return checks;
}

/** The same ratios between the steps that did run at 1× and 4× (the slope so far; informative, not a target). */
export function slopes(steps: readonly StepFigures[]): TargetCheck[] {
  const presets = [...new Set(steps.map((s) => s.preset))];
  return presets.flatMap((preset) => [...COST_FIGURES, ...MEMORY_FIGURES, ...LATENCY_FIGURES]
    .map((f) => ratioCheck(steps, '4x vs 1x', preset, f, 1, 4, Number.POSITIVE_INFINITY)));
}
