/**
 * The Cloud-Optimized GeoTIFF writer against GDAL: georeferencing, tiling, overviews, nodata, description, unit and
 * metadata as GDAL reads them (&, < and quotes included), the COG validator of python3-gdal (full check), and every
 * value read back; the grid read band by band (256 rows at a time, north to south) and nothing left beside the file.
 */
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cogImageSizes, writeCog, type CogSpec } from '../../src/store/cog-writer.js';
import { gdalRead, hasGdalPython } from '../helpers/gdal-read.js';
import { tempDir } from './helpers.js';

let root: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  root = await tempDir('cog');
});
afterAll(() => root.cleanup());

/** A grid of `width` × `height` with a pattern of values and a scattering of NaN. */
function pattern(width: number, height: number): Float32Array {
  const values = new Float32Array(width * height);
  for (let i = 0; i < values.length; i++) values[i] = i % 13 === 0 ? Number.NaN : ((i * 37) % 1000) / 7 - 20;
  return values;
}

const SPEC: CogSpec = {
  epsg: 31370, originX: 148_000, originY: 171_500, cellSize: 2.5, nodata: -9999, resampling: 'average',
  description: 'thermal.min_utci_c', unit: '°C', metadata: { MEANING: 'Lowest hourly UTCI – in °C & "<b>"' },
};

/** Writes `values` (width × …) as a COG at `path` through a band source; the bands asked for, in order. */
async function write(path: string, values: Float32Array, width: number, spec: Partial<CogSpec> = {}): Promise<[number, number][]> {
  const asked: [number, number][] = [];
  await writeCog(path, { ...SPEC, ...spec }, {
    width,
    height: values.length / width,
    readRows(r0, r1) {
      asked.push([r0, r1]);
      return values.slice(r0 * width, r1 * width);
    },
  });
  return asked;
}

describe.skipIf(!hasGdalPython)('writeCog', () => {
  it.each([
    [1, 1], [255, 257], [600, 400], [1030, 20], [300, 1100],
  ])('writes a %i × %i grid GDAL reads back exactly as a valid COG', async (width, height) => {
    const g = { width, height, values: pattern(width, height) };
    const path = join(root.dir, `g-${width}x${height}.tif`);
    const asked = await write(path, g.values, width);
    expect(asked).toEqual(Array.from({ length: Math.ceil(height / 256) }, (_, b) => [b * 256, Math.min(height, (b + 1) * 256)]));
    const view = gdalRead(path);
    expect(view.cogErrors).toEqual([]);
    expect(view.epsg).toBe('31370');
    expect(view.geotransform).toEqual([148_000, 2.5, 0, 171_500, 0, -2.5]);
    expect(view.size).toEqual([width, height]);
    expect(view.block).toEqual([256, 256]);
    expect(view.overviews.length).toBeGreaterThan(0);
    const last = view.overviews[view.overviews.length - 1]!;
    expect(Math.max(...last)).toBeLessThanOrEqual(256);
    expect(view.overviews[0]).toEqual([Math.ceil(width / 2), Math.ceil(height / 2)]);
    expect(view.overviews).toEqual(cogImageSizes(width, height).slice(1));
    expect(view.description).toBe('thermal.min_utci_c');
    expect(view.unit).toBe('°C');
    expect(view.nodata).toBe(-9999);
    expect(view.metadata.MEANING).toBe('Lowest hourly UTCI – in °C & "<b>"');
    const want = g.values.map((v) => (Number.isNaN(v) ? -9999 : v));
    expect(Buffer.from(view.values.buffer).equals(Buffer.from(want.buffer))).toBe(true);
  });

  it('averages overviews over the cells with a value, or keeps one cell for coded figures', async () => {
    const values = Float32Array.from([1, 2, 3, Number.NaN, 5, 6, Number.NaN, Number.NaN]);
    // 2 × 2 blocks: {1, 2, 5, 6} and {3, NaN, NaN, NaN}.
    const want = { average: [3.5, 3], nearest: [1, 3] };
    for (const resampling of ['average', 'nearest'] as const) {
      const path = join(root.dir, `ovr-${resampling}.tif`);
      await write(path, values, 4, { resampling });
      const view = gdalRead(path);
      expect(view.overviews).toEqual([[2, 1]]);
      expect([...view.overview]).toEqual(want[resampling]);
    }
    const empty = Float32Array.from([Number.NaN, Number.NaN, 7, 8]);
    const path = join(root.dir, 'ovr-empty.tif');
    await write(path, empty, 4);
    expect([...gdalRead(path).overview]).toEqual([-9999, 7.5]);
  });

  it('refuses a band that does not fill its rows, and leaves nothing beside the file', async () => {
    const dir = join(root.dir, 'short');
    await mkdir(dir);
    const short = writeCog(join(dir, 'short.tif'), SPEC, { width: 4, height: 4, readRows: () => new Float32Array(15) });
    await expect(short).rejects.toThrow(RangeError);
    expect((await readdir(dir)).filter((n) => n.startsWith('.'))).toEqual([]);
    await expect(writeCog(join(dir, 'empty.tif'), SPEC, { width: 0, height: 4, readRows: () => new Float32Array(0) })).rejects.toThrow(RangeError);
  });
});
