/**
 * `npm run bench -- kernels`: the kernel workbench. Variants (bench/variants/<name>/, `--variant NAME` repeatable,
 * default release and scalar; `--asc "FLAGS"` for an ad-hoc flag variant; `--against REV` for another revision's
 * release build) are built on demand, checked against the release build bit for bit over the gate set, then timed in
 * interleaved rounds in this process with an A/A twin of the baseline; the verdict per variant comes from a bootstrap
 * interval of per-round throughput ratios against the noise threshold. `--kernel stats|precompute|decode`,
 * `--threshold 2%`, `--budget SECONDS`, `--seed N`, `--save NAME [--force]`, `--format md`. Exit 0: no regression;
 * 1: a variant slower beyond the threshold, or a target missed; 2: refused. See docs/kernels.md, "Tuning a kernel".
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../src/util/paths.js';
import { HOURLY_FIELDS } from '../src/store/dataset-types.js';
import { benchOptions, type BenchOptions, type BenchResult } from './registry.js';
import { AA_SUFFIX, regressions } from './workbench/ab-analysis.js';
import { runAb, type Contender } from './workbench/ab-runner.js';
import { baselineStore } from './workbench/baseline-store.js';
import { runGate } from './workbench/gate.js';
import { loadModule, type LoadedModule } from './workbench/modules.js';
import { formatRows, tableRows } from './workbench/report.js';
import { renderSvg } from './workbench/report-svg.js';
import { WorkbenchRefusal } from './workbench/refusal.js';
import { buildRevision } from './workbench/revision.js';
import { finishContext, startContext } from './workbench/run-context.js';
import { statsReferenceRows } from './workbench/stats-reference-rows.js';
import { statsReferences } from './workbench/stats-references.js';
import { ascVersion, buildVariant, type BuiltVariant } from './workbench/variant-build.js';
import { adHocVariant, KERNELS, readVariant, type KernelName } from './workbench/variant-spec.js';
import { workload, type Workload } from './workbench/workloads.js';

const VARIANTS_DIR = join(PROJECT_ROOT, 'bench', 'variants');
const TREE = { root: PROJECT_ROOT, label: 'working tree' };

/** A repeated option's values (run.ts joins repeats with newlines), also split at commas. */
const list = (v: string | undefined): string[] => (v ?? '').split(/[\n,]/).map((s) => s.trim()).filter(Boolean);

/** `--threshold 2%` or `0.02` as a fraction. */
function parseThreshold(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = v.endsWith('%') ? Number(v.slice(0, -1)) / 100 : Number(v);
  if (!Number.isFinite(n) || n <= 0 || n >= 0.5) throw new WorkbenchRefusal(`--threshold ${v}: give a fraction or a percentage between 0 and 50 %.`);
  return n;
}

/** A positive number option, or its default. */
function positive(name: string, v: string | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new WorkbenchRefusal(`--${name} ${v}: give a positive number.`);
  return n;
}

/** Every variant the options name, built (release first: the gate's reference). */
function buildAll(kernel: KernelName, o: BenchOptions): BuiltVariant[] {
  const names = list(o.variant);
  const chosen = names.length ? names : ['release', 'scalar'];
  const specs = ['release', ...chosen.filter((n) => n !== 'release')].map((n) => readVariant(VARIANTS_DIR, n, join(PROJECT_ROOT, 'assembly')));
  if (o.asc !== undefined) specs.push(...o.asc.split('\n').map(adHocVariant));
  const built = specs.map((s) => buildVariant(s, kernel, TREE));
  for (const rev of list(o.against)) built.push(buildRevision(rev, kernel));
  return built;
}

/**
 * Compilations of each contender's module timed in turn. V8 places each compilation's code anew, and that placement
 * alone moves an identical build by up to about 3 % for the compilation's whole life (docs/kernels.md, "Power"): a
 * contender timed through one compilation carries its placement's offset into every round, and the A/A twin's offset
 * sets the threshold. So each contender's units cycle through PLACEMENTS compilations of its own (each warmed up by
 * the runner's warm-up, which cycles too), every round runs each of them alike (bench/workbench/ab-runner.ts), and a
 * ratio compares averages over placements.
 */
const PLACEMENTS = 3;

/** The contender `name`: PLACEMENTS compilations of `wasmPath`, bound to the workload, run in turn. */
function placedContender(name: string, kernel: KernelName, wasmPath: string, w: Workload): Contender {
  const units = Array.from({ length: PLACEMENTS }, () => w.bind(loadModule(name, kernel, wasmPath)));
  let next = 0;
  return { name, round: () => units[next++ % PLACEMENTS]!(), placements: PLACEMENTS };
}

/** Runs the workbench. */
export async function run(args: readonly string[] = []): Promise<BenchResult & Record<string, unknown>> {
  const o = benchOptions(args);
  if (o === undefined) throw new WorkbenchRefusal(`Options are '--name value' pairs (flags: --force); got '${args.join(' ')}'.`);
  const kernel = (o.kernel ?? 'stats') as KernelName;
  if (!KERNELS.includes(kernel)) throw new WorkbenchRefusal(`--kernel ${o.kernel}: one of ${KERNELS.join(', ')}.`);
  const threshold = parseThreshold(o.threshold);
  const seed = positive('seed', o.seed, 27);
  const format = o.format === 'md' ? 'md' : 'text';
  const store = baselineStore(join(PROJECT_ROOT, 'bench', 'baselines'));
  if (o.save !== undefined) store.checkFree(o.save, o.force === 'true');
  const start = startContext();
  const built = buildAll(kernel, o);
  const baseline = o.baseline ?? 'release';
  if (!built.some((b) => b.spec.name === baseline)) throw new WorkbenchRefusal(`--baseline ${baseline} is not among the variants run.`);
  const modules = new Map<string, LoadedModule>(built.map((b) => [b.spec.name, loadModule(b.spec.name, kernel, b.wasmPath)]));
  const release = modules.get('release')!;
  let gateCases = 0;
  for (const [name, m] of modules) if (name !== 'release') gateCases = runGate(kernel, release, m);

  const w = workload(kernel);
  const contenders: Contender[] = built.map((b) => placedContender(b.spec.name, kernel, b.wasmPath, w));
  // The A/A twin is the baseline's module compiled anew, PLACEMENTS more times: a twin sharing the baseline's
  // compiled code would not show what code placement does in the threshold.
  const base = built.find((b) => b.spec.name === baseline)!;
  contenders.push(placedContender(baseline + AA_SUFFIX, kernel, base.wasmPath, w));
  const budgetS = positive('budget', o.budget, Math.min(60, 30 * modules.size));
  const ab = runAb(contenders, { baseline, cellHours: w.cellHours, seed, budgetMs: budgetS * 1e3, threshold });
  const a = ab.analysis;

  const notes: string[] = [];
  const references = new Set(built.filter((b) => b.spec.reference).map((b) => b.spec.name));
  const rows = tableRows(a, ab.rates, references);
  let targets: Record<string, boolean | null> = {};
  let referenceFigures: Record<string, unknown> = {};
  let cc: string | null = null;
  if (kernel === 'stats') {
    const r = statsReferenceRows(a, ab.wallRates, statsReferences(modules));
    rows.push(...r.rows);
    notes.push(...r.notes);
    targets = r.targets;
    referenceFigures = r.figures;
    cc = (r.figures.c_baseline.compiler as string | null) ?? null;
  } else notes.push(`No C baseline or bandwidth ceiling for ${kernel}: ${w.description}; zstd runs natively, identical for every variant.`);
  const missed = Object.entries(targets).filter(([, ok]) => ok === false).map(([k]) => k);
  const slower = regressions(a, references);
  const exitCode = slower.length || missed.length ? 1 : 0;
  notes.push(
    `Gate: ${modules.size - 1} variant(s) bit-identical to release over ${gateCases} gate cases.`,
    `Rounds: ${ab.rounds} measured in ${(ab.elapsedMs / 1e3).toFixed(1)} s with warm-up (budget ${budgetS} s), stopped by ${ab.stoppedBy === 'narrow' ? 'narrow intervals' : 'the budget'}; seed ${seed}. ` +
      `Warm-up units / units per round: ${Object.keys(ab.units).map((n) => `${n} ${ab.warmup[n]}/${ab.units[n]}`).join(', ')}.`,
    `Noise threshold ±${(a.threshold * 100).toFixed(1)} % (${a.thresholdSource === 'A/A' ? `from the A/A twin, floor 1 %` : 'given'}).`,
    ...missed.map((k) => `TARGET MISSED: ${k}.`),
    ...slower.map((r) => `REGRESSION: ${r.variant} is slower than ${baseline} (interval ${r.interval.low.toFixed(3)}–${r.interval.high.toFixed(3)}).`),
  );
  const variants = Object.fromEntries(built.map((b) => [b.spec.name, { asc: b.spec.asc, replaces: Object.keys(b.spec.replacements), sha256: b.sha256, source: b.source, cached: b.cached }]));
  const context = finishContext(start, variants, { asc_version: ascVersion(), cc, kernel, workload: w.description, fields: HOURLY_FIELDS.length });
  if (o.save !== undefined) {
    const file = store.save({ name: o.save, kernel, baseline, references: [...references], rates: ab.rates, seed, context }, o.force === 'true');
    notes.push(`Saved ${file}.`);
  }
  const title = `Kernel workbench, ${kernel}: ${w.description}; M cell-hours per CPU-second`;
  const svg = join(PROJECT_ROOT, 'bench', 'results', `kernels-${kernel}.svg`);
  writeFileSync(svg, renderSvg(`Kernel workbench: ${kernel}, ${ab.rounds} interleaved rounds`, a, ab.rates, references));
  notes.push(`Plot: ${svg}.`);
  return {
    name: kernel === 'stats' ? 'kernels' : `kernels-${kernel}`,
    title,
    columns: Object.keys(rows[0]!),
    rows,
    notes,
    report: `${title}\n\n${formatRows(rows, format)}\n\n${notes.join('\n')}`,
    exitCode,
    figures: {
      kernel, baseline, threshold: a.threshold, verdicts: a.ratios, throughput: a.throughput, rates: ab.rates,
      wall_rates: ab.wallRates, units_per_round: ab.units, warmup_units: ab.warmup, references: [...references],
      ...referenceFigures, targets, context,
    },
  };
}
