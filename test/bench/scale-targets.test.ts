/**
 * The scale ladder's step list and targets (bench/scale-steps.ts, bench/scale-targets.ts): ratios between the steps
 * of one preset from one run; a target whose steps did not run is not evaluated rather than met.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { parseSteps, stepCells } from '../../bench/scale-steps.js';
import { evaluateTargets, type StepFigures } from '../../bench/scale-targets.js';

describe('parseSteps', () => {
  it('reads preset:K pairs, once each', () => {
    expect(parseSteps('demo:1, bench:4,demo:1')).toEqual([{ preset: 'demo', scale: 1 }, { preset: 'bench', scale: 4 }]);
    expect(stepCells({ preset: 'demo', scale: 16 })).toBe(16 * 160 * 120);
  });

  it('refuses unknown presets and bad scales', () => {
    for (const bad of ['city:1', 'demo', 'demo:0', 'demo:x', 'demo:-4']) expect(() => parseSteps(bad)).toThrow(ValidationError);
  });
});

const step = (scale: number, over: Record<string, number>): StepFigures => ({
  preset: 'demo', scale, generate_cpu_s_per_mcell: 100, generate_peak_rss_mb: 300, truly_cold_point_ms: 50, tile_max_kb: 100, ...over,
});

describe('evaluateTargets', () => {
  const find = (checks: ReturnType<typeof evaluateTargets>, figure: string) => checks.find((c) => c.figure === figure)!;

  it('judges cost per cell and latency 16x against 1x, memory 16x against 4x', () => {
    const checks = evaluateTargets([
      step(1, {}),
      step(4, { generate_peak_rss_mb: 400 }),
      step(16, { generate_cpu_s_per_mcell: 114, generate_peak_rss_mb: 450, truly_cold_point_ms: 60 }),
    ]);
    expect(find(checks, 'generate_cpu_s_per_mcell')).toMatchObject({ ratio: 1.14, pass: true });
    expect(find(checks, 'generate_peak_rss_mb').pass).toBe(false);
    expect(find(checks, 'generate_peak_rss_mb').ratio).toBeCloseTo(1.125);
    expect(find(checks, 'truly_cold_point_ms')).toMatchObject({ ratio: 1.2, pass: false });
    expect(checks.filter((c) => c.target.startsWith('every tile')).every((c) => c.pass === true)).toBe(true);
  });

  it('judges tile latency like for like: the deepest zoom\'s interior tiles, not the mix of every tile asked', () => {
    const checks = evaluateTargets([
      step(1, { tile_p99_ms: 12, tile_deep_p99_ms: 40 }),
      step(16, { tile_p99_ms: 35, tile_deep_p99_ms: 44 }),
    ]);
    expect(find(checks, 'tile_deep_p99_ms')).toMatchObject({ target: 'latency, 16x vs 1x', pass: true });
    expect(find(checks, 'tile_deep_p99_ms').ratio).toBeCloseTo(1.1);
    expect(checks.some((c) => c.figure === 'tile_p99_ms')).toBe(false);
  });

  it('leaves a target whose steps did not run unevaluated, and fails a tile over 500 KB at any step', () => {
    const checks = evaluateTargets([step(1, { tile_max_kb: 501 }), step(4, {})]);
    expect(find(checks, 'generate_cpu_s_per_mcell')).toMatchObject({ ratio: null, pass: null });
    expect(find(checks, 'tile_max_kb (x1)').pass).toBe(false);
    expect(find(checks, 'tile_max_kb (x4)').pass).toBe(true);
  });
});
