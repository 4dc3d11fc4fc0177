/**
 * The node's memory budget (`SVC_MEMORY_BUDGET_MB`) split among its caches: each cache gets a fixed share, in
 * sixteenths of the budget, so one setting bounds what they hold together. Four caches have a setting of their own
 * (`SVC_STATS_RESPONSE_CACHE_MB`, `SVC_MAP_TILE_CACHE_MB`, `SVC_MAP_SLICE_CACHE_MB`, `SVC_MAP_ANNUAL_CACHE_MB`); one
 * that is set takes its size off the top of the budget, and the caches left share the rest in their proportions. A budget that leaves a cache
 * less than `MIN_CACHE_MB` is a configuration error. Each cache counts what its entries really hold
 * (src/util/heap-size.ts); docs/operations.md#memory says how much memory a node needs on top of it.
 */
import { fail } from './kinds.js';
import { DEFAULT_MEMORY_BUDGET_MB, SETTINGS, type SettingValues } from './settings.js';

/** Least a cache sized from the budget may get, MiB. */
const MIN_CACHE_MB = 1;

/** The settings that size the caches. */
type BudgetSettings = Pick<SettingValues, 'memoryBudgetMb' | 'statsResponseCacheMb' | 'mapTileCacheMb' | 'mapSliceCacheMb' | 'mapAnnualCacheMb'>;

/** One share: sixteenths of the budget, the setting that may size it instead, what it holds (docs). */
export interface CacheShare {
  readonly sixteenths: number;
  readonly setting?: Exclude<keyof BudgetSettings, 'memoryBudgetMb'>;
  readonly holds: string;
}

/** Every share of the budget, by name; the sixteenths add up to 16. */
export const CACHE_SHARES = {
  statistics: { sixteenths: 2, holds: 'computed statistics in front of SQLite (meta and block text per location)' },
  statsResponses: { sixteenths: 1, setting: 'statsResponseCacheMb', holds: 'complete `/historical/stats` answers the fast path replays' },
  mapTiles: { sixteenths: 2, setting: 'mapTileCacheMb', holds: 'drawn map tiles, raw and gzipped' },
  mapSlices: { sixteenths: 4, setting: 'mapSliceCacheMb', holds: "the model's hourly grid slices behind map tiles" },
  annualBands: { sixteenths: 1, setting: 'mapAnnualCacheMb', holds: 'decoded chunks of the precomputed grids and overviews behind the annual map layers' },
  modelChunks: { sixteenths: 2, holds: 'decoded hourly chunks of the embedded model service (unused with `SVC_MODEL_SERVICE_URL`)' },
  modelSlices: { sixteenths: 1, holds: 'hourly slices of the embedded model service (unused with `SVC_MODEL_SERVICE_URL`)' },
  realtime: { sixteenths: 1, holds: '`/realtime` answers, 5 minutes each' },
  surroundings: { sixteenths: 1, holds: "report surroundings grids (the reports' maps)" },
  reserve: {
    sixteenths: 1,
    holds: 'no cache: what is bounded by count instead (key look-ups and verified tile signatures, 10,000 each; a rate-limit window per key; computations in flight)',
  },
} as const satisfies Readonly<Record<string, CacheShare>>;

/** The name of a share. */
export type CacheName = keyof typeof CACHE_SHARES;

const MIB = 1024 * 1024;
const NAMES = Object.keys(CACHE_SHARES) as CacheName[];

/** Each cache's budget in bytes; throws a configuration error when the budget cannot hold them. */
export function cacheBudgets(settings: BudgetSettings): Readonly<Record<CacheName, number>> {
  const share = (name: CacheName): CacheShare => CACHE_SHARES[name];
  const own = (name: CacheName): number | undefined => {
    const key = share(name).setting;
    return key === undefined ? undefined : settings[key];
  };
  const given = NAMES.filter((name) => own(name) !== undefined);
  const shared = NAMES.filter((name) => own(name) === undefined);
  const givenMb = given.reduce((sum, name) => sum + own(name)!, 0);
  const sixteenths = shared.reduce((sum, name) => sum + share(name).sixteenths, 0);
  const restMb = settings.memoryBudgetMb - givenMb;
  const smallest = Math.min(...shared.map((name) => share(name).sixteenths));
  if (restMb * (smallest / sixteenths) < MIN_CACHE_MB) {
    const taken = given.map((name) => `${SETTINGS[share(name).setting!].env} ${own(name)} MiB`).join(', ');
    fail(
      SETTINGS.memoryBudgetMb.env,
      `must leave every cache at least ${MIN_CACHE_MB} MiB${taken === '' ? '' : ` after those given a size of their own (${taken})`}`,
      settings.memoryBudgetMb,
    );
  }
  const bytes = Object.fromEntries(NAMES.map((name) => {
    const mb = own(name) ?? (restMb * share(name).sixteenths) / sixteenths;
    return [name, Math.floor(mb * MIB)];
  }));
  return Object.freeze(bytes) as Record<CacheName, number>;
}

/** The split as a Markdown table for docs/operations.md (test/docs/configuration-table.test.ts keeps it there). */
export function memoryBudgetTable(): string {
  const budgetMb = DEFAULT_MEMORY_BUDGET_MB;
  const defaults = cacheBudgets({
    memoryBudgetMb: budgetMb, statsResponseCacheMb: undefined, mapTileCacheMb: undefined, mapSliceCacheMb: undefined, mapAnnualCacheMb: undefined,
  });
  const rows = NAMES.map((name) => {
    const s: CacheShare = CACHE_SHARES[name];
    const setting = s.setting === undefined ? '' : ` (or \`${SETTINGS[s.setting].env}\`)`;
    return `| ${name} | ${s.sixteenths}/16${setting} | ${defaults[name] / MIB} MiB | ${s.holds.replace(/\|/g, '\\|')} |`;
  });
  return [`| Share | Of the budget | At ${budgetMb} MiB | Holds |`, '|---|---|---|---|', ...rows].join('\n');
}
