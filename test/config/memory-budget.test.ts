/**
 * The memory budget: shares that add up to the whole, caches sized from `SVC_MEMORY_BUDGET_MB`, caches given a size
 * of their own taken off the top, and a clear configuration error when the budget cannot hold them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { CACHE_SHARES, cacheBudgets, memoryBudgetTable } from '../../src/config/memory-budget.js';
import { ValidationError } from '../../src/errors.js';
import { PROJECT_ROOT } from '../../src/util/paths.js';

const MIB = 1024 * 1024;
const sum = (values: Record<string, number>) => Object.values(values).reduce((a, b) => a + b, 0);

describe('cacheBudgets', () => {
  it('splits the budget by shares that add up to the whole', () => {
    expect(sum(Object.fromEntries(Object.entries(CACHE_SHARES).map(([k, v]) => [k, v.sixteenths])))).toBe(16);
    const budgets = cacheBudgets(loadConfig({ SVC_MEMORY_BUDGET_MB: '256' }));
    expect(budgets.statistics).toBe(32 * MIB);
    expect(budgets.mapSlices).toBe(64 * MIB);
    expect(sum(budgets)).toBe(256 * MIB);
  });

  it('takes caches given a size of their own off the top and shares the rest in proportion', () => {
    const budgets = cacheBudgets(loadConfig({ SVC_MEMORY_BUDGET_MB: '512', SVC_MAP_SLICE_CACHE_MB: '256', SVC_STATS_RESPONSE_CACHE_MB: '0' }));
    expect(budgets.mapSlices).toBe(256 * MIB);
    expect(budgets.statsResponses).toBe(0);
    // The annual chunk cache may hold nothing too: every annual tile then decodes what it reads (cold tiles).
    expect(cacheBudgets(loadConfig({ SVC_MAP_ANNUAL_CACHE_MB: '0' })).annualBands).toBe(0);
    expect(() => loadConfig({ SVC_MAP_ANNUAL_CACHE_MB: '-1' })).toThrow(/SVC_MAP_ANNUAL_CACHE_MB/);
    // 256 MiB left for 11 sixteenths' worth of shares.
    expect(budgets.statistics).toBe(Math.floor(((256 * 2) / 11) * MIB));
    expect(sum(budgets)).toBeLessThanOrEqual(512 * MIB);
  });

  it('refuses a budget below its minimum or too small for the sizes given, naming the variable', () => {
    for (const env of [
      { SVC_MEMORY_BUDGET_MB: '32' },
      { SVC_MEMORY_BUDGET_MB: 'lots' },
      { SVC_MEMORY_BUDGET_MB: '128', SVC_MAP_SLICE_CACHE_MB: '100', SVC_MAP_TILE_CACHE_MB: '27' },
    ]) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ValidationError);
      expect(() => loadConfig(env)).toThrow(/SVC_MEMORY_BUDGET_MB/);
    }
    expect(() => loadConfig({ SVC_MEMORY_BUDGET_MB: '128', SVC_MAP_SLICE_CACHE_MB: '100' })).not.toThrow();
  });
});

describe('docs/operations.md', () => {
  it('holds the split of the budget rendered from the shares', () => {
    const page = readFileSync(join(PROJECT_ROOT, 'docs/operations.md'), 'utf8');
    expect(page).toContain(memoryBudgetTable());
  });
});
