/**
 * `npm run bench -- power [--runs 20] [--budget 20]`: the workbench's power, measured on the statistics kernel. Runs the
 * workbench `--runs` times in fresh processes (seeds 1…runs) with the variants `release-copy` (an identical copy of
 * release: an A/A check against the threshold the A/A twin measured) and `slower-5pct` (one redundant pass, known to
 * be about 5 % slower), and counts each one's verdicts: how often the copy is called "no change" (the false-alarm
 * rate is the rest) and how often the slower variant is called "slower". The smallest detectable change is read from
 * the runs' thresholds and interval half-widths: a change is called once its interval clears the threshold.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../src/util/paths.js';
import { benchOptions, type BenchResult } from './registry.js';
import { WorkbenchRefusal } from './workbench/refusal.js';
import { median } from './workbench/statistics.js';

interface Finding { variant: string; median: number; interval: { low: number; high: number }; verdict: string; resolved: boolean }

/** Runs the study. */
export async function run(args: readonly string[] = []): Promise<BenchResult> {
  const o = benchOptions(args);
  if (o === undefined) throw new WorkbenchRefusal(`Options are '--name value' pairs (flags: --force); got '${args.join(' ')}'.`);
  const runs = Number(o.runs ?? 20);
  const budget = Number(o.budget ?? 20);
  const kernel = o.kernel ?? 'stats';
  if (kernel !== 'stats') throw new WorkbenchRefusal(`power: --kernel ${kernel}: the study's slower-5pct variant is a stats variant.`);
  if (!(Number.isInteger(runs) && runs > 0) || !(budget > 0)) throw new WorkbenchRefusal('power: --runs and --budget take positive numbers.');
  const tally: Record<string, Record<string, number>> = { 'release-copy': {}, 'slower-5pct': {} };
  const perRun: Record<string, string | number>[] = [];
  const thresholds: number[] = [];
  const halfWidths: number[] = [];
  const ratios: number[] = [];
  for (let i = 1; i <= runs; i++) {
    const args = ['dist/bench/run.js', 'kernels', '--kernel', kernel, '--variant', 'release-copy', '--variant', 'slower-5pct',
      '--budget', String(budget), '--seed', String(i)];
    try {
      execFileSync(process.execPath, args, { cwd: PROJECT_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    } catch (err) {
      if ((err as { status?: number }).status !== 1) throw err; // 1: a regression, a finding like any other
    }
    const result = JSON.parse(readFileSync(join(PROJECT_ROOT, 'bench', 'results', kernel === 'stats' ? 'kernels.json' : `kernels-${kernel}.json`), 'utf8')) as
      { verdicts: Finding[]; threshold: number; context: { load?: unknown } };
    thresholds.push(result.threshold);
    const row: Record<string, string | number> = { run: i, threshold: `${(result.threshold * 100).toFixed(1)} %` };
    for (const f of result.verdicts.filter((v) => v.variant in tally)) {
      const word = f.verdict === 'no change' && !f.resolved ? 'no change (unresolved)' : f.verdict;
      tally[f.variant]![word] = (tally[f.variant]![word] ?? 0) + 1;
      row[f.variant] = `${f.median.toFixed(3)} [${f.interval.low.toFixed(3)}–${f.interval.high.toFixed(3)}] ${word}`;
      halfWidths.push((f.interval.high - f.interval.low) / 2);
      if (f.variant === 'slower-5pct') ratios.push(f.median);
    }
    perRun.push(row);
    console.error(`power: run ${i}/${runs}: ${JSON.stringify(row)}`);
  }
  const count = (v: string, words: string[]): number => words.reduce((n, w) => n + (tally[v]![w] ?? 0), 0);
  const detectable = median(thresholds) + median(halfWidths);
  return {
    name: `kernels-power-${kernel}`,
    title: `Workbench power: ${runs} runs of ${budget} s, ${kernel} kernel, release-copy (A/A) and slower-5pct`,
    columns: ['run', 'threshold', 'release-copy', 'slower-5pct'],
    rows: perRun,
    notes: [
      `release-copy (A/A): no change in ${count('release-copy', ['no change', 'no change (unresolved)'])} of ${runs} ` +
        `(${JSON.stringify(tally['release-copy'])}).`,
      `slower-5pct (measured ratio, median of runs ${ratios.length ? median(ratios).toFixed(3) : 'n/a'}): slower in ` +
        `${count('slower-5pct', ['slower'])} of ${runs} (${JSON.stringify(tally['slower-5pct'])}).`,
      `Threshold median ${(median(thresholds) * 100).toFixed(1)} %, interval half-width median ${(median(halfWidths) * 100).toFixed(2)} %: ` +
        `smallest change called at this budget about ${(detectable * 100).toFixed(1)} %.`,
    ],
    figures: { tally, thresholds, half_widths: halfWidths, slower_ratios: ratios, smallest_detectable: detectable },
  };
}
