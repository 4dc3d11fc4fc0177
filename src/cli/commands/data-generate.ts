import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generatePreset, generationPlans } from '../../model/generate.js';
import { PRESETS, type Preset } from '../../model/presets.js';
import type { Command } from '../command.js';
import { parseCount } from '../options.js';
import { UsageError } from '../usage-error.js';

const USAGE = `Usage: svc data generate --demo|--fixture|--bench [--scale K] [--out DIR] [--seed N] [--threads N]

Writes the stand-in city model's datasets (Zarr v2, xarray-readable) under DIR/<dataset id>:
  --demo      brussels_extended (10 m), belgium_lowres (5 km, air and thermal; also answers inside Ghent's zone)
  --fixture   the same two datasets at coarse resolution, for tests (seconds)
  --bench     bench_1m: a 128 m x 128 m block at 1 m for the query benchmarks
Options:
  --scale K     the preset's street-level dataset alone, over K times the preset's area at the same
                resolution (K copies of its block pattern, the preset's rectangle in the south-west corner, growing
                east and north), written as brussels_extended (docs/scaling.md); default --out data/scale/<preset>-x<K>
  --out DIR     output directory (default data/<preset>)
  --seed N      random seed, a non-negative integer (default 1); the same seed gives the same data
  --threads N   generator threads (default: number of cores)`;

/** `svc data generate`. */
export const dataGenerateCommand: Command = {
  path: ['data', 'generate'],
  summary: 'Generate the demo, fixture or benchmark datasets of the stand-in city model',
  usage: USAGE,
  async run(args) {
    const { values } = parseArgs({
      args,
      strict: true,
      options: {
        demo: { type: 'boolean' }, fixture: { type: 'boolean' }, bench: { type: 'boolean' },
        out: { type: 'string' }, seed: { type: 'string' }, threads: { type: 'string' }, scale: { type: 'string' },
      },
    });
    const chosen = PRESETS.filter((p) => values[p]);
    if (chosen.length !== 1) throw new UsageError('Choose exactly one of --demo, --fixture, --bench.');
    const preset: Preset = chosen[0];
    const seed = parseCount('seed', values.seed, 1);
    const threads = values.threads === undefined ? undefined : parseCount('threads', values.threads, 1, 1);
    const scale = values.scale === undefined ? undefined : parseCount('scale', values.scale, 1, 1);
    if (scale !== undefined) generationPlans({ preset, scale }); // a bad --scale is refused before anything else
    const outDir = resolve(values.out ?? (scale === undefined ? `data/${preset}` : `data/scale/${preset}-x${scale}`));
    const started = performance.now();
    const dirs = await generatePreset({ preset, outDir, seed, threads, scale, notice: (line) => console.log(line) });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`Generated ${dirs.length} dataset(s) in ${seconds} s:\n${dirs.map((d) => `  ${d}`).join('\n')}`);
    return 0;
  },
};
