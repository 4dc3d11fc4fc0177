/**
 * `svc data aggregate DIR`: writes (or rewrites, or with `--levels none` removes) the stored aggregates of one dataset
 * or of every dataset under a data directory (docs/datasets.md, "Aggregates"). A damaged chunk stops a dataset with
 * the list of damaged chunks and nothing written (exit code 1); an interrupted run leaves the store as it was.
 */
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createLocalCompute } from '../../compute/local-compute.js';
import { aggregateDataset, type AggregateResult } from '../../compute/aggregates/dataset-aggregation.js';
import { DatasetError, ValidationError } from '../../errors.js';
import { AGGREGATE_LEVELS } from '../../store/aggregate-files.js';
import { isStoreDir, listDatasets } from '../../store/data-dir.js';
import { createProgress, type Progress } from '../../util/progress.js';
import type { Command } from '../command.js';
import { parseCount } from '../options.js';
import { UsageError } from '../usage-error.js';

const USAGE = `Usage: svc data aggregate DIR [--levels L,L,...|none] [--threads N] [--no-progress]

Writes the stored aggregates of a dataset (DIR a dataset directory such as data/bench/bench_1m) or of every dataset
under a data directory: for aligned blocks of L x L chunks, the statistics kernel's hourly records over every outdoor
cell, so that radius queries covering whole blocks merge them instead of decoding every chunk. Answers are identical
with or without them. Every chunk is read and checked first; a damaged one stops the dataset with the list of damaged
chunks and nothing written (exit code 1). Existing aggregates are replaced as a whole.

  --levels L,...  block sizes in chunks per side, among ${AGGREGATE_LEVELS.join(', ')}; default: those whose blocks fit
                  well inside a 50 m radius at the dataset's resolution (1, 2, 4 at 1 m; none at 10 m);
                  'none' removes stored aggregates
  --threads N     compute threads (default: number of cores)
  --no-progress   no progress bar`;

function parseOptions(args: string[]) {
  try {
    return parseArgs({
      args, strict: true, allowPositionals: true,
      options: { levels: { type: 'string' }, threads: { type: 'string' }, 'no-progress': { type: 'boolean' } },
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) throw new UsageError((err as Error).message);
    throw err;
  }
}

/** `--levels`: a comma-separated list of known block sizes, or `none`. */
function parseLevels(value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  if (value === 'none') return [];
  const known = AGGREGATE_LEVELS as readonly number[];
  const levels = value.split(',').map((v) => Number(v.trim()));
  if (levels.length === 0 || levels.some((l) => !known.includes(l))) {
    throw new ValidationError(`--levels must list block sizes among ${known.join(', ')}, or be 'none' (got '${value}').`);
  }
  return levels;
}

function report(result: AggregateResult): void {
  if (result.damaged.length > 0) {
    console.log(`${result.dataset}: DAMAGED, nothing written (${result.damaged.length} problem(s)):`);
    for (const problem of result.damaged) console.log(`  ${problem}`);
  } else if (result.levels.length === 0) {
    console.log(`${result.dataset}: no stored aggregates (none are worth storing at this resolution, or --levels none)`);
  } else {
    console.log(`${result.dataset}: ${result.files} aggregates written (levels ${result.levels.join(', ')}; ${(result.bytes / 1e6).toFixed(1)} MB)`);
  }
}

/** `svc data aggregate`. */
export const dataAggregateCommand: Command = {
  path: ['data', 'aggregate'],
  summary: 'Write the stored aggregates radius queries merge instead of decoding whole chunks',
  usage: USAGE,
  async run(args) {
    const { values, positionals } = parseOptions(args);
    if (positionals.length !== 1) throw new UsageError('Give exactly one directory: a dataset or a data directory.');
    const levels = parseLevels(values.levels);
    const threads = values.threads === undefined ? undefined : parseCount('threads', values.threads, 1, 1);
    const dir = resolve(positionals[0]);
    const single = await isStoreDir(dir);
    const dataDir = single ? dirname(dir) : dir;
    const ids = single ? [basename(dir)] : await listDatasets(dir);
    if (ids.length === 0) throw new DatasetError(`No dataset found in ${dir} (a dataset directory holds .zmetadata).`);
    const compute = await createLocalCompute({ dataDir, threads });
    let damaged = 0;
    try {
      for (const id of ids) {
        let bar: Progress | undefined;
        const result = await aggregateDataset(compute, dataDir, id, {
          ...(levels ? { levels } : {}),
          onStart: (blocks) => { bar = values['no-progress'] ? undefined : createProgress(`aggregate ${join(dataDir, id)}`, blocks); },
          onBlock: () => bar?.tick(),
        });
        bar?.done();
        report(result);
        if (result.damaged.length > 0) damaged++;
      }
    } finally {
      await compute.close();
    }
    if (damaged > 0) {
      console.log(`\n${damaged} dataset(s) damaged: restore the damaged chunks (svc data verify lists them all) and run again.`);
      return 1;
    }
    return 0;
  },
};
