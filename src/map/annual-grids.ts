/**
 * What the annual layers are drawn from: the precompute of a city's dataset (`<data dir>/<dataset>.precomputed`, the
 * grid group `svc precompute` writes). A precompute is served only when it is current: made from the content version
 * of the dataset the map shows and holding every figure. Otherwise the annual layers are left out of the catalog and
 * their tiles are 404, and the log says why once per precompute and dataset version (a stale precompute would show
 * last year's data under this year's name). What was found is kept for `ttlMs` (the catalog's lifetime), so a new
 * precompute appears without a restart: in the tiles within `ttlMs`, in the catalog (cached `ttlMs` itself) within
 * twice that at most. A tile reads the published values of its blocks, or at the deepest zoom the window of cells it
 * draws, from bands kept in a bounded cache (annual-tables.ts, annual-windows.ts), never a whole grid.
 */
import { precomputedDir } from '../compute/datasets/dataset-cache.js';
import { describePrecomputeProblem, precomputeProblem } from '../compute/precompute/precompute-problem.js';
import { openGridGroup, type GridGroup } from '../store/grid-group-reader.js';
import type { LruStats } from '../util/byte-lru.js';
import { annualTileJob } from './annual-tables.js';
import { AnnualWindows, DEFAULT_ANNUAL_BAND_CACHE_BYTES } from './annual-windows.js';
import type { DatasetState } from './map-data.js';
import type { TileField } from './map-layers.js';
import type { TileJob } from './tile-drawing.js';

/** Whether a dataset's precompute is served, and if not, why. */
export type AnnualStatus =
  | { readonly served: true; readonly group: GridGroup; readonly version: string }
  | { readonly served: false; readonly reason: string };

/** Options of `AnnualGrids`. */
export interface AnnualGridsOptions {
  /** The data directory (or base URL) holding `<dataset>.precomputed`. */
  readonly dataDir: string;
  readonly now: () => number;
  readonly ttlMs: number;
  /** Told once per precompute and dataset version why a precompute is not served. */
  readonly warn: (message: string) => void;
  /**
   * What the decoded bands of the grids may hold together, bytes (the `annualBands` share of the memory budget);
   * default `DEFAULT_ANNUAL_BAND_CACHE_BYTES`.
   */
  readonly bandCacheBytes?: number;
}

/** The annual grids of every dataset of the map. */
export class AnnualGrids {
  readonly #options: AnnualGridsOptions;
  readonly #status = new Map<string, { readonly checkedMs: number; readonly status: Promise<AnnualStatus> }>();
  readonly #settled = new Map<string, { readonly checkedMs: number; readonly status: AnnualStatus }>();
  readonly #windows: AnnualWindows;
  readonly #warned = new Set<string>();

  constructor(options: AnnualGridsOptions) {
    this.#options = options;
    this.#windows = new AnnualWindows(options.bandCacheBytes ?? DEFAULT_ANNUAL_BAND_CACHE_BYTES);
  }

  /** Whether the precompute of `state`'s dataset (city `city`) is served now (checked at most once per `ttlMs`). */
  status(state: DatasetState, city: string): Promise<AnnualStatus> {
    const { dataset, content_version: version } = state.info;
    const key = `${dataset}|${version}`;
    const now = this.#options.now();
    const cached = this.#status.get(key);
    if (cached !== undefined && now < cached.checkedMs + this.#options.ttlMs) return cached.status;
    const status = this.#check(state, city);
    status.then((settled) => this.#settled.set(key, { checkedMs: now, status: settled }), () => this.#status.delete(key));
    this.#status.set(key, { checkedMs: now, status });
    return status;
  }

  /** The status of `state`'s dataset when one was found within `ttlMs` (never reads; the tile fast path). */
  freshStatus(state: DatasetState): AnnualStatus | undefined {
    const found = this.#settled.get(`${state.info.dataset}|${state.info.content_version}`);
    return found !== undefined && this.#options.now() < found.checkedMs + this.#options.ttlMs ? found.status : undefined;
  }

  async #check(state: DatasetState, city: string): Promise<AnnualStatus> {
    const { dataset, content_version: version, grid } = state.info;
    const rerun = `run \`svc precompute --data ${this.#options.dataDir} --city ${city}\``;
    let group: GridGroup | undefined;
    try {
      group = await openGridGroup(precomputedDir(this.#options.dataDir, dataset), grid.ny, grid.nx);
    } catch (err) {
      // Unreadable (damaged, or being replaced by a new precompute right now): not served, and said once.
      return this.#notServed(`${dataset}|${version}|unreadable|${(err as Error).message}`, `the precompute of '${dataset}' cannot be read (${(err as Error).message}); ${rerun}`);
    }
    if (group === undefined) return { served: false, reason: `dataset '${dataset}' has no precompute` };
    const made = String(group.attrs.content_version);
    const generated = String(group.attrs.generated_utc ?? '');
    const problem = precomputeProblem(group, version);
    const reason = problem && `the precompute of '${dataset}' ${describePrecomputeProblem(problem, version)}; ${rerun}`;
    if (reason === undefined) return { served: true, group, version: `${version}|${generated}` };
    return this.#notServed(`${dataset}|${version}|${made}|${generated}`, reason);
  }

  /** A precompute not served for `reason`, told once per `once` key. */
  #notServed(once: string, reason: string): AnnualStatus {
    if (!this.#warned.has(once)) {
      this.#warned.add(once);
      this.#options.warn(`Annual map layers left out: ${reason}.`);
    }
    return { served: false, reason };
  }

  /** What draws annual tile `base` of a layer with `fields` from a served precompute (annual-tables.ts). */
  tileJob(status: Extract<AnnualStatus, { served: true }>, base: Parameters<typeof annualTileJob>[1], fields: readonly TileField[]): Promise<TileJob> {
    return annualTileJob({ windows: this.#windows, group: status.group, version: status.version }, base, fields);
  }

  /** Counters of the band cache. */
  bandStats(): LruStats {
    return this.#windows.stats();
  }
}
