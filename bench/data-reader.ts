/**
 * The end-to-end row of the data benchmark: the benchmark chunks written as a real dataset with the writer's default
 * codecs, then read back through `openDataset(...).readChunk` (zarrita `getChunk` with the native codecs registered),
 * with asynchronous and with synchronous (`syncReads`, for worker threads) file reads.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { LAMBERT72_PROJ4 } from '../src/store/crs.js';
import type { DatasetSpec, HourlyField } from '../src/store/dataset-types.js';
import { openDataset } from '../src/store/zarr-reader.js';
import { writeDataset } from '../src/store/zarr-writer.js';
import { BENCH_CHUNK } from './data-fields.js';

/** Total size of the files under `dir`. */
async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && !entry.name.startsWith('.')) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** Writes `chunks` (even: NO2, odd: wind) as a dataset at `dir`; each pass reads them all back through a reader. */
export async function prepareReader(
  chunks: readonly Int16Array[],
  dir: string,
): Promise<{ ratio: number; pass: () => Promise<void>; syncPass: () => Promise<void> }> {
  const { hours, rows, cols } = BENCH_CHUNK;
  const perField = chunks.length / 2;
  const side = Math.ceil(Math.sqrt(perField));
  const spec: DatasetSpec = {
    attrs: {
      dataset: 'bench_codecs', title: 'codec benchmark', crs_epsg: 31370, crs_proj4: LAMBERT72_PROJ4, resolution_m: 1,
      reference_year: 2023, timezone: 'Europe/Brussels', generated_utc: new Date().toISOString(),
      content_version: 'bench', fields: ['no2', 'ucomfort'], attribution: 'benchmark',
    },
    grid: { crs_epsg: 31370, resolution_m: 1, nx: side * cols, ny: Math.ceil(perField / side) * rows, x0: 150000.5, y0: 170000.5 },
    hours,
    chunk: { hours, rows, cols },
  };
  const place = (i: number) => ({ field: (i % 2 === 0 ? 'no2' : 'ucomfort') as HourlyField, r: Math.floor((i >> 1) / side), c: (i >> 1) % side });
  const chunkRows = spec.grid.ny / rows;
  await writeDataset(dir, spec, async (writer) => {
    await writer.writeStatic('outdoor', new Uint8Array(spec.grid.nx * spec.grid.ny).fill(1));
    await writer.writeStatic('building_height', new Float32Array(spec.grid.nx * spec.grid.ny));
    for (let i = 0; i < chunks.length; i++) {
      const { field, r, c } = place(i);
      await writer.writeChunk(field, r, c, chunks[i]);
    }
    // Cells of the chunk grid beyond the benchmark chunks (when the count is not square) are filled with copies.
    for (let i = chunks.length; i < 2 * side * chunkRows; i++) {
      const { field, r, c } = place(i);
      await writer.writeChunk(field, r, c, chunks[i % chunks.length]);
    }
  });
  const readers = [await openDataset(dir), await openDataset(dir, { syncReads: true })];
  const passOf = (reader: (typeof readers)[number]) => async () => {
    for (let i = 0; i < chunks.length; i++) {
      const { field, r, c } = place(i);
      await reader.readChunk(field, r, c);
    }
  };
  const stored = (await sizeOf(join(dir, 'no2'))) + (await sizeOf(join(dir, 'ucomfort')));
  const allChunksBytes = 2 * side * chunkRows * hours * rows * cols * 2;
  return { ratio: allChunksBytes / stored, pass: passOf(readers[0]), syncPass: passOf(readers[1]) };
}
