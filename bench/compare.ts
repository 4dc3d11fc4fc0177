/**
 * `npm run bench -- compare A B`: compares two saved workbench runs (bench/baselines/A.json, B.json) of the same
 * kernel. Each contender's rounds are summarised; B's contenders are set against A's baseline contender by unpaired
 * ratios of all round pairs (the runs were not interleaved, so only the bootstrap of the median ratio applies), with
 * the verdict against `--threshold` (default: the larger of the two runs' A/A thresholds, floor 1 %).
 */
import { join } from 'node:path';
import { PROJECT_ROOT } from '../src/util/paths.js';
import { benchOptions, type BenchResult } from './registry.js';
import { analyse } from './workbench/ab-analysis.js';
import { baselineStore } from './workbench/baseline-store.js';
import { WorkbenchRefusal } from './workbench/refusal.js';
import { bootstrapMedian, median, summarize, verdict } from './workbench/statistics.js';

/** Runs the comparison. */
export async function run(args: readonly string[] = []): Promise<BenchResult> {
  const o = benchOptions(args);
  if (o === undefined) throw new WorkbenchRefusal(`Options are '--name value' pairs (flags: --force); got '${args.join(' ')}'.`);
  const names = (o.args ?? '').split('\n').filter(Boolean);
  if (names.length !== 2) throw new WorkbenchRefusal('Usage: npm run bench -- compare A B (two saved baselines).');
  const store = baselineStore(join(PROJECT_ROOT, 'bench', 'baselines'));
  const [a, b] = names.map((n) => store.load(n)) as [ReturnType<typeof store.load>, ReturnType<typeof store.load>];
  if (a.kernel !== b.kernel) throw new WorkbenchRefusal(`Baselines ${a.name} (${a.kernel}) and ${b.name} (${b.kernel}) time different kernels.`);
  const ta = analyse(a.rates, a.baseline, a.seed).threshold;
  const tb = analyse(b.rates, b.baseline, b.seed).threshold;
  const threshold = o.threshold ? Number(o.threshold.replace('%', '')) / (o.threshold.endsWith('%') ? 100 : 1) : Math.max(ta, tb);
  const ref = a.rates[a.baseline]!;
  const refMedian = median(ref);
  const rows: Record<string, string | number>[] = [];
  let slower = 0;
  for (const [run, rates] of [[a, a.rates], [b, b.rates]] as const) {
    for (const [name, v] of Object.entries(rates)) {
      const s = summarize(v);
      const ratios = v.map((x) => x / refMedian);
      const ci = bootstrapMedian(ratios, a.seed);
      const isRef = run === a && name === a.baseline;
      const call = isRef ? '' : verdict(ci, threshold).verdict;
      const reference = (run.references ?? []).includes(name) ? ' (reference)' : '';
      if (run === b && call === 'slower' && !name.endsWith('(A/A)') && !(b.references ?? []).includes(name)) slower++;
      rows.push({
        run: run.name, variant: name, 'median M cell-h/s': s.median.toFixed(1), min: s.min.toFixed(1), MAD: s.mad.toFixed(1),
        [`ratio to ${a.name}/${a.baseline}`]: isRef ? '1' : `${(s.median / refMedian).toFixed(3)}×`,
        '95 % interval': isRef ? '' : `${ci.low.toFixed(3)}–${ci.high.toFixed(3)}`, verdict: call && call + reference,
      });
    }
  }
  const ctx = (r: typeof a): string => `${r.name}: commit ${String(r.context.commit).slice(0, 10)}${r.context.dirty ? ' (dirty)' : ''}, ${String((r.context.cpu as { model?: string } | undefined)?.model ?? '?')}, ${r.context.started}`;
  return {
    name: `compare-${a.name}-${b.name}`,
    title: `Saved runs ${a.name} and ${b.name} (${a.kernel}), against ${a.name}'s ${a.baseline}; M cell-hours per CPU-second`,
    columns: Object.keys(rows[0]!),
    rows,
    notes: [ctx(a), ctx(b), `Threshold ±${(threshold * 100).toFixed(1)} %. Runs at different times are not paired: a verdict here is weaker than one from a single interleaved run (--against).`],
    exitCode: slower ? 1 : 0,
  };
}
