/**
 * Benchmarks by name for `npm run bench -- <name>`. Each module is loaded only when its benchmark runs and exports
 * `run(): Promise<BenchResult>`.
 */

/** One benchmark's outcome: a table (rows keyed by column) plus notes such as the decision the numbers support. */
export interface BenchResult {
  readonly name: string;
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: readonly Readonly<Record<string, string | number>>[];
  readonly notes: readonly string[];
  /** Named machine-readable figures (e.g. `cold_point_ms`), written at the top level of the JSON. */
  readonly figures?: Readonly<Record<string, unknown>>;
  /** A target was missed: the run exits with code 1 (after writing the result). */
  readonly failed?: boolean;
  /** Text printed instead of the default table (the kernel workbench's own table). */
  readonly report?: string;
  /** Exit status the run asks for (1: a regression or a missed target); 0 when absent. */
  readonly exitCode?: number;
}

/**
 * Options of the command line (`--minutes 25` is `{ minutes: '25' }`), as text; a repeated option's values are joined
 * by newlines, a flag without a value (`--force`) is `'true'`, and words after the benchmark's name are `args`.
 */
export type BenchOptions = Readonly<Record<string, string>>;

/** Options that take no value. */
const FLAGS = new Set(['force']);

/**
 * A benchmark's arguments (the words after its name) as options: `--name value` pairs, a repeated option's values
 * joined by newlines, a flag (`--force`) `'true'`, other words newline-joined as `args` (`compare A B`); undefined when
 * an option lacks its value.
 */
export function benchOptions(args: readonly string[]): BenchOptions | undefined {
  const options: Record<string, string> = {};
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const key = arg.slice(2);
    const value = FLAGS.has(key) ? 'true' : args[++i];
    if (value === undefined) return undefined;
    options[key] = key in options ? `${options[key]}\n${value}` : value;
  }
  if (words.length > 0) options.args = words.join('\n');
  return options;
}

/** Whether `--name` takes no value (so the word after it is not its value). */
export function isBenchFlag(arg: string): boolean {
  return FLAGS.has(arg.slice(2));
}

/** A benchmark module; one that takes no options ignores them. */
export interface BenchModule {
  /** `args`: what followed the benchmark's name on the command line up to the next name (its options). */
  run(args?: readonly string[]): Promise<BenchResult>;
}

/** Every benchmark, by the name given on the command line. */
export const BENCHMARKS: Readonly<Record<string, () => Promise<BenchModule>>> = {
  addresses: () => import('./addresses.js'),
  area: () => import('./area.js'),
  atlas: () => import('./atlas.js'),
  batch: () => import('./batch.js'),
  'chunk-index': () => import('./chunk-index.js'),
  cluster: () => import('./cluster.js'),
  compare: () => import('./compare.js'),
  data: () => import('./data.js'),
  http: () => import('./http.js'),
  kernels: () => import('./kernels.js'),
  power: () => import('./power.js'),
  precompute: () => import('./precompute.js'),
  query: () => import('./query.js'),
  reports: () => import('./reports.js'),
  soak: () => import('./soak.js'),
  scale: () => import('./scale.js'),
  state: () => import('./shared-state.js'),
  streaming: () => import('./streaming.js'),
  tiles: () => import('./tiles.js'),
};
