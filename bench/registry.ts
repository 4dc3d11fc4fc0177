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

/** A benchmark module; one that takes no options ignores them. */
export interface BenchModule {
  run(options?: BenchOptions): Promise<BenchResult>;
}

/** Every benchmark, by the name given on the command line. */
export const BENCHMARKS: Readonly<Record<string, () => Promise<BenchModule>>> = {
  addresses: () => import('./addresses.js'),
  atlas: () => import('./atlas.js'),
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
  state: () => import('./shared-state.js'),
  tiles: () => import('./tiles.js'),
};
