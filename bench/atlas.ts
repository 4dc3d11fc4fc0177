/**
 * `npm run bench -- atlas`: the city atlas of the demo city end to end, in one run: `svc precompute` of brussels (every
 * figure of every outdoor cell, a pool of 2 threads) and `svc atlas export` (a Cloud-Optimized GeoTIFF per figure and
 * atlas.json), wall and CPU seconds of this process (all threads), and the size of every file. The demo data come from
 * BENCH_ATLAS_DATA (default data/demo; generated when missing) and are copied first, so the precompute starts from
 * nothing and the demo directory stays as it was.
 */
import { access, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { exportAtlas } from '../src/atlas/atlas-export.js';
import { getCity } from '../src/cities/catalog.js';
import { createLocalCompute } from '../src/compute/local-compute.js';
import { generatePreset } from '../src/model/generate.js';
import { precomputeCity } from '../src/services/precompute.js';
import { MANIFEST_FILE } from '../src/store/chunk-manifest.js';
import { PROJECT_ROOT } from '../src/util/paths.js';
import type { BenchResult } from './registry.js';
import { measureOnce } from './timing.js';

const THREADS = 2;

/** Runs the benchmark. */
export async function run(): Promise<BenchResult> {
  const raw = process.env.BENCH_ATLAS_DATA;
  const demo = resolve(raw === undefined || raw === '' ? join(PROJECT_ROOT, 'data/demo') : raw);
  const city = getCity('brussels')!;
  try {
    await access(join(demo, city.dataset, MANIFEST_FILE));
  } catch {
    console.log(`Generating the demo data into ${demo} (once)…`);
    await generatePreset({ preset: 'demo', outDir: demo, seed: 1 });
  }
  const root = await mkdtemp(join(tmpdir(), 'bench-atlas-'));
  try {
    const dataDir = join(root, 'data');
    await cp(join(demo, city.dataset), join(dataDir, city.dataset), { recursive: true });
    const compute = await createLocalCompute({ dataDir, threads: THREADS });
    let cells = 0;
    const precompute = await measureOnce(async () => {
      cells = (await precomputeCity(compute, dataDir, city)).cells;
    }).finally(() => compute.close());
    let files: { file: string; bytes: number }[] = [];
    const exported = await measureOnce(async () => {
      files = [...(await exportAtlas(dataDir, city, join(root, 'atlas'))).files];
    });
    const tifs = files.filter((f) => f.file.endsWith('.tif'));
    const total = files.reduce((n, f) => n + f.bytes, 0);
    const largest = Math.max(...tifs.map((f) => f.bytes));
    const s = (ms: number): number => Math.round(ms) / 1000;
    return {
      name: 'atlas',
      title: `City atlas of ${city.id} (${city.dataset}, ${cells} outdoor cells): precompute, ${THREADS} threads; export`,
      columns: ['step', 'wall s', 'CPU s', 'files', 'bytes'],
      rows: [
        { step: 'svc precompute', 'wall s': s(precompute.wallMs), 'CPU s': s(precompute.cpuMs), files: '', bytes: '' },
        {
          step: 'svc atlas export', 'wall s': s(exported.wallMs), 'CPU s': s(exported.cpuMs), files: files.length,
          bytes: total,
        },
        ...files.map((f) => ({ step: `  ${f.file}`, 'wall s': '', 'CPU s': '', files: '', bytes: f.bytes })),
      ],
      notes: [
        `${tifs.length} GeoTIFFs, ${(total / 1e6).toFixed(2)} MB in all; largest ${largest} bytes.`,
      ],
      figures: {
        cells,
        precompute_s: s(precompute.wallMs),
        precompute_cpu_s: s(precompute.cpuMs),
        export_s: s(exported.wallMs),
        export_cpu_s: s(exported.cpuMs),
        geotiffs: tifs.length,
        export_bytes: total,
        largest_geotiff_bytes: largest,
      },
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
