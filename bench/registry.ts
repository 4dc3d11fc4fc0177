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
}

/** Options of the command line (`--minutes 25` is `{ minutes: '25' }`), as text. */
export type BenchOptions = Readonly<Record<string, string>>;

/** A benchmark's `--name value` arguments as options; undefined when an option lacks its value or a word is not one. */
export function benchOptions(args: readonly string[]): BenchOptions | undefined {
  const options: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i]!;
    const value = args[i + 1];
    if (!name.startsWith('--') || value === undefined) return undefined;
    options[name.slice(2)] = value;
  }
  return options;
}

/** A benchmark module; one that takes no options ignores them. */
export interface BenchModule {
  /** `args`: what followed the benchmark's name on the command line up to the next name (its options). */
  run(args?: readonly string[]): Promise<BenchResult>;
}

/** Every benchmark, by the name given on the command line. */
export const BENCHMARKS: Readonly<Record<string, () => Promise<BenchModule>>> = {
  addresses: () => import('./addresses.js'),
  atlas: () => import('./atlas.js'),
  'chunk-index': () => import('./chunk-index.js'),
  cluster: () => import('./cluster.js'),
  data: () => import('./data.js'),
  http: () => import('./http.js'),
  kernels: () => import('./kernels.js'),
  precompute: () => import('./precompute.js'),
  query: () => import('./query.js'),
  reports: () => import('./reports.js'),
  soak: () => import('./soak.js'),
  scale: () => import('./scale.js'),
  state: () => import('./shared-state.js'),
  streaming: () => import('./streaming.js'),
  tiles: () => import('./tiles.js'),
};
