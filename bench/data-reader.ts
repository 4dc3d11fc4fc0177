/**
 * The end-to-end row of the data benchmark: the benchmark chunks written as a real dataset with the writer's default
 * codecs, then read back through `openDataset(...).readChunk` (zarrita `getChunk` with the native codecs registered),
 * with asynchronous and with synchronous (`syncReads`, for worker threads) file reads.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { LAMBERT72_PROJ4 } from '../src/geo/lambert72.js';
import type { DatasetSpec } from '../src/store/dataset-types.js';
import { openDataset } from '../src/store/zarr-reader.js';
import { writeDataset } from '../src/store/zarr-writer.js';
import { BENCH_CHUNK, type FieldChunk } from './data-fields.js';

/** Total size of the files under `dir`. */
async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && !entry.name.startsWith('.')) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** Writes `chunks` (every field at each position, in order) as a dataset at `dir`; each pass reads them all back. */
export async function prepareReader(
  chunks: readonly FieldChunk[],
  dir: string,
): Promise<{ ratio: number; pass: () => Promise<void>; syncPass: () => Promise<void> }> {
  const { hours, rows, cols } = BENCH_CHUNK;
  const fields = [...new Set(chunks.map((c) => c.field))];
  const positions = chunks.length / fields.length;
  const spec: DatasetSpec = {
    attrs: {
      dataset: 'bench_codecs', title: 'codec benchmark', crs_epsg: 31370, crs_proj4: LAMBERT72_PROJ4, resolution_m: 1,
      reference_year: 2023, timezone: 'Europe/Brussels', generated_utc: new Date().toISOString(),
      content_version: 'bench', fields, attribution: 'benchmark',
    },
    grid: { crs_epsg: 31370, resolution_m: 1, nx: positions * cols, ny: rows, x0: 150000.5, y0: 170000.5 },
    hours,
    chunk: { hours, rows, cols },
  };
  const place = (i: number) => ({ field: chunks[i].field, c: Math.floor(i / fields.length) });
  await writeDataset(dir, spec, async (writer) => {
    await writer.writeStatic('outdoor', new Uint8Array(spec.grid.nx * spec.grid.ny).fill(1));
    await writer.writeStatic('building_height', new Float32Array(spec.grid.nx * spec.grid.ny));
    for (let i = 0; i < chunks.length; i++) await writer.writeChunk(chunks[i].field, 0, place(i).c, chunks[i].data);
  });
  const readers = [await openDataset(dir), await openDataset(dir, { syncReads: true })];
  const passOf = (reader: (typeof readers)[number]) => async () => {
    for (let i = 0; i < chunks.length; i++) await reader.readChunk(chunks[i].field, 0, place(i).c);
  };
  let stored = 0;
  for (const field of fields) stored += await sizeOf(join(dir, field));
  return { ratio: (chunks.length * hours * rows * cols * 2) / stored, pass: passOf(readers[0]), syncPass: passOf(readers[1]) };
}
