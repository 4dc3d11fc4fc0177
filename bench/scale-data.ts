/**
 * The data of a ladder step, made once and reused while current. A step is generated (one stage), then aggregated
 * where its resolution gets stored aggregates (another stage); after each, a stamp (`.ladder-step.json`, written
 * atomically) records the content version and the stage's measured figures, so a reused step still reports them.
 *
 * Interrupted anywhere (Ctrl-C, kill -9, a full disk), a step leaves no half store: the generator writes into a
 * hidden temporary sibling renamed into place, and aggregation writes a generation no manifest names yet. The next run
 * says which it does: reusing (stamp and dataset current), resuming (the dataset is complete, its aggregates are not:
 * only they are written), or redoing (no complete dataset of this version: generated again, after the generator
 * removes what the interrupted run left).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultAggregateLevels } from '../src/compute/aggregates/dataset-aggregation.js';
import { planSpec } from '../src/model/generate.js';
import { SCALED_DATASET, scaledPlan } from '../src/model/scaled-plans.js';
import { writeFileAtomic } from '../src/store/atomic-dir.js';
import { staleTemporaries } from '../src/store/stale-temporaries.js';
import { runStage, type StageResult } from './scale-stage.js';
import { stepDir, stepName, type LadderStep } from './scale-steps.js';

const STAMP = '.ladder-step.json';

/** What the stamp of a step records. */
export interface StepStamp {
  readonly content_version: string;
  readonly generate: StageResult;
  /** Absent until aggregated (and always at resolutions without stored aggregates). */
  readonly aggregate?: StageResult;
}

/** The content version a step's dataset has when generated with `seed`. */
function expectedVersion(step: LadderStep, seed: number): string {
  return planSpec(scaledPlan(step.preset, step.scale), seed, 8760, '').attrs.content_version;
}

async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** Options of `ensureStepData`. */
export interface StepDataOptions {
  readonly root: string;
  readonly seed: number;
  readonly threads: number;
  readonly log: (line: string) => void;
}

/** Makes (or reuses, or finishes) the data of `step`; returns its stamp. */
export async function ensureStepData(step: LadderStep, options: StepDataOptions): Promise<StepStamp> {
  const dir = stepDir(options.root, step);
  const name = stepName(step);
  const version = expectedVersion(step, options.seed);
  const plan = scaledPlan(step.preset, step.scale);
  const wantsAggregates = defaultAggregateLevels(plan.resolution_m, { hours: 0, rows: plan.chunkCells, cols: plan.chunkCells }).length > 0;
  const params = { preset: step.preset, scale: step.scale, dataDir: dir, threads: options.threads, seed: options.seed };
  let stamp = await readJson<StepStamp>(join(dir, STAMP));
  const attrs = await readJson<{ content_version?: string }>(join(dir, SCALED_DATASET, '.zattrs'));
  const complete = stamp?.content_version === version && attrs?.content_version === version;
  if (!complete) {
    const leftovers = await staleTemporaries(join(dir, SCALED_DATASET));
    const why = leftovers.length > 0 ? `an earlier run was interrupted (${leftovers.length} partial director${leftovers.length === 1 ? 'y' : 'ies'} left)`
      : attrs === undefined ? 'no dataset yet'
      : attrs.content_version !== version ? `its dataset is of another version (${attrs.content_version}, wanted ${version})`
      : 'its dataset was never recorded as complete';
    options.log(`${attrs === undefined && leftovers.length === 0 ? 'generating' : 'redoing'} ${name}: ${why}`);
    stamp = { content_version: version, generate: await runStage('generate', params) };
    await writeFileAtomic(join(dir, STAMP), JSON.stringify(stamp, null, 2));
  } else if (wantsAggregates && stamp!.aggregate === undefined) {
    options.log(`resuming ${name}: its dataset is complete, its stored aggregates are not; writing them`);
  } else {
    options.log(`reusing ${name} (generated and recorded earlier; content version ${version})`);
  }
  if (wantsAggregates && stamp!.aggregate === undefined) {
    stamp = { ...stamp!, aggregate: await runStage('aggregate', params) };
    await writeFileAtomic(join(dir, STAMP), JSON.stringify(stamp, null, 2));
  }
  return stamp!;
}
