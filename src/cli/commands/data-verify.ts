/**
 * `svc data verify DIR`: checks one dataset, or every dataset under a data directory, chunk by chunk against its chunk
 * manifest (present, size, CRC-32, decodes to a full chunk), plus the precomputed city references of a data directory.
 * Exit code 0 when everything is intact, 1 when anything is damaged (each problem listed), 2 on a usage error.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readReferences } from '../../compute/datasets/dataset-cache.js';
import { DamagedDataError, DatasetError } from '../../errors.js';
import { isStoreDir, listDatasets } from '../../store/data-dir.js';
import { countChunks, verifyStore, type StoreVerification } from '../../store/store-verify.js';
import { createProgress } from '../../util/progress.js';
import type { Command } from '../command.js';
import { UsageError } from '../usage-error.js';

const USAGE = `Usage: svc data verify DIR [--write-manifest] [--no-progress]

Checks a dataset (DIR is a dataset directory such as data/demo/brussels_extended) or every dataset under a data
directory (DIR such as data/demo): the metadata, the chunk manifest (.zmanifest), and every chunk of every array —
present, of the recorded size and CRC-32, and decoding to a full chunk — and, for a data directory, the precomputed
city references. Lists every problem; exit code 0 when all is intact, 1 when something is damaged.

  --write-manifest  give a store written before chunk manifests existed its manifest, or rewrite a JSON manifest
                    as a binary chunk index, if and only if every chunk is present and decodes (a store that
                    has a chunk index is only checked)
  --no-progress     no progress bar`;

/** Most problems printed per dataset; the count of the rest is printed instead. */
const MAX_LISTED = 50;

function parseOptions(args: string[]) {
  try {
    return parseArgs({
      args, strict: true, allowPositionals: true,
      options: { 'write-manifest': { type: 'boolean' }, 'no-progress': { type: 'boolean' } },
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) throw new UsageError((err as Error).message);
    throw err;
  }
}

function report(result: StoreVerification): void {
  const what = { written: 'manifest written', converted: 'manifest checked and rewritten as a chunk index', checked: 'manifest checked', missing: 'no manifest' }[result.manifest];
  if (result.problems.length === 0) {
    console.log(`${result.dataset}: ok (${result.chunks} chunks, ${what})`);
    return;
  }
  console.log(`${result.dataset}: DAMAGED (${result.problems.length} problem(s), ${result.chunks} chunks checked, ${what})`);
  for (const problem of result.problems.slice(0, MAX_LISTED)) console.log(`  ${problem}`);
  if (result.problems.length > MAX_LISTED) console.log(`  … and ${result.problems.length - MAX_LISTED} more`);
}

/** `svc data verify`. */
export const dataVerifyCommand: Command = {
  path: ['data', 'verify'],
  summary: 'Check datasets chunk by chunk against their manifests; non-zero exit on damage',
  usage: USAGE,
  async run(args) {
    const { values, positionals } = parseOptions(args);
    if (positionals.length !== 1) throw new UsageError('Give exactly one directory: a dataset or a data directory.');
    const dir = resolve(positionals[0]);
    const single = await isStoreDir(dir);
    const dataDir = single ? undefined : dir;
    const dirs = single ? [dir] : (await listDatasets(dir)).map((id) => join(dir, id));
    if (dirs.length === 0) throw new DatasetError(`No dataset found in ${dir} (a dataset directory holds .zmetadata).`);
    let damaged = 0;
    for (const storeDir of dirs) {
      const total = await countChunks(storeDir);
      const progress = values['no-progress'] || total === 0 ? undefined : createProgress(`verify ${storeDir}`, total);
      const result = await verifyStore(storeDir, { writeManifest: values['write-manifest'] === true, onChunk: () => progress?.tick() });
      progress?.done();
      const problems = [...result.problems];
      if (dataDir !== undefined) {
        await readReferences(dataDir, result.dataset).catch((err: unknown) => {
          if (!(err instanceof DamagedDataError)) throw err;
          problems.push(err.message);
        });
      }
      report({ ...result, problems });
      if (problems.length > 0) damaged++;
    }
    if (damaged > 0) {
      console.log(`\n${damaged} of ${dirs.length} dataset(s) damaged. Restore the files from a copy or regenerate the dataset` +
        ' (svc data generate); a store without a manifest gets one with --write-manifest once every chunk is intact.');
      return 1;
    }
    return 0;
  },
};
