/**
 * Saved runs under bench/baselines/<name>.json: the raw per-round samples and the context of one workbench run, so a
 * later `compare` can recompute every figure. A saved baseline is never overwritten without `force`, and is written to
 * a temporary file renamed into place, so an interrupted run leaves the saved baselines as they were.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkbenchRefusal } from './refusal.js';

/** What a saved run holds. */
export interface SavedRun {
  readonly name: string;
  readonly kernel: string;
  readonly baseline: string;
  /** Variants declared `"reference": true` (reported, never a regression); absent in runs saved before the key. */
  readonly references?: readonly string[];
  /** M cell-hours per CPU-second, per contender, per round (paired by round). */
  readonly rates: Readonly<Record<string, readonly number[]>>;
  readonly seed: number;
  readonly context: Readonly<Record<string, unknown>>;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** A store of saved runs in `dir`. */
export function baselineStore(dir: string) {
  const path = (name: string): string => {
    if (!NAME.test(name)) throw new WorkbenchRefusal(`Baseline name "${name}" is not a file name (letters, digits, . _ -).`);
    return join(dir, `${name}.json`);
  };
  return {
    /** Refuses up front, before a run is spent, a name that is not a file name or that exists without `force`. */
    checkFree(name: string, force = false): void {
      const file = path(name);
      if (existsSync(file) && !force) throw new WorkbenchRefusal(`Baseline ${name} exists (${file}); add --force to replace it.`);
    },
    /** Saves `run` under its name; refuses to replace an existing one unless `force`. */
    save(run: SavedRun, force = false): string {
      const file = path(run.name);
      if (existsSync(file) && !force) throw new WorkbenchRefusal(`Baseline ${run.name} exists (${file}); add --force to replace it.`);
      mkdirSync(dir, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        writeFileSync(tmp, `${JSON.stringify(run, null, 1)}\n`);
        renameSync(tmp, file);
      } finally {
        rmSync(tmp, { force: true });
      }
      return file;
    },
    /** The saved run `name`; refuses a missing or unreadable one. */
    load(name: string): SavedRun {
      const file = path(name);
      if (!existsSync(file)) {
        const known = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)) : [];
        throw new WorkbenchRefusal(`No baseline ${name} (saved: ${known.join(', ') || 'none'}).`);
      }
      try {
        const run = JSON.parse(readFileSync(file, 'utf8')) as SavedRun;
        if (typeof run.rates !== 'object' || typeof run.baseline !== 'string') throw new Error('missing rates or baseline');
        return run;
      } catch (cause) {
        throw new WorkbenchRefusal(`Baseline ${name} is unreadable (${(cause as Error).message}).`, { cause });
      }
    },
  };
}
