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
}

/** A benchmark module. */
export interface BenchModule {
  run(): Promise<BenchResult>;
}

/** Every benchmark, by the name given on the command line. */
export const BENCHMARKS: Readonly<Record<string, () => Promise<BenchModule>>> = {
  addresses: () => import('./addresses.js'),
  atlas: () => import('./atlas.js'),
  cluster: () => import('./cluster.js'),
  data: () => import('./data.js'),
  http: () => import('./http.js'),
  kernels: () => import('./kernels.js'),
  precompute: () => import('./precompute.js'),
  query: () => import('./query.js'),
  reports: () => import('./reports.js'),
  state: () => import('./shared-state.js'),
  streaming: () => import('./streaming.js'),
  tiles: () => import('./tiles.js'),
};
