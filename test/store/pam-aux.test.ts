/**
 * The PAM sidecar of a coded raster as GDAL reads it beside a COG: category names by pixel value (gaps named ''),
 * the raster attribute table with colours only when every class has one, band metadata items in the file itself;
 * values GDAL's category list cannot index are refused.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCog } from '../../src/store/cog-writer.js';
import { categoriesAuxXml } from '../../src/store/pam-aux.js';
import { gdalRead, hasGdalPython } from '../helpers/gdal-read.js';
import { tempDir } from './helpers.js';

let root: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  root = await tempDir('pam');
});
afterAll(() => root.cleanup());

/** Writes a 2 × 2 coded COG named `name` with the sidecar of `xml`; returns its path. */
async function coded(name: string, xml: string): Promise<string> {
  const path = join(root.dir, `${name}.tif`);
  const values = Float32Array.from([1, 3, 3, Number.NaN]);
  await writeCog(path, {
    epsg: 31370, originX: 148_000, originY: 171_000, cellSize: 10, nodata: -9999, resampling: 'nearest',
    description: 'class', unit: 'code', bandMetadata: { CATEGORIES: '1: A; 3: C & D' },
  }, { width: 2, height: 2, readRows: (r0, r1) => values.slice(r0 * 2, r1 * 2) });
  await writeFile(`${path}.aux.xml`, xml);
  return path;
}

describe.skipIf(!hasGdalPython)('categoriesAuxXml', () => {
  it('names each value, leaving gaps unnamed, with a coloured attribute table', async () => {
    const path = await coded('coloured', categoriesAuxXml([{ value: 1, name: 'A', color: '#0072B2' }, { value: 3, name: 'C & D', color: '#e69f00' }]));
    const view = gdalRead(path);
    expect(view.categories).toEqual(['', 'A', '', 'C & D']);
    expect(view.rat).toEqual({ columns: ['Value', 'Name', 'Red', 'Green', 'Blue'], rows: [[1, 'A', 0, 114, 178], [3, 'C & D', 230, 159, 0]] });
    expect(view.bandMetadata).toEqual({ CATEGORIES: '1: A; 3: C & D' });
    expect(view.unit).toBe('code');
    expect(view.cogErrors).toEqual([]);
  });

  it('leaves the colour columns out unless every class has a colour', async () => {
    const view = gdalRead(await coded('plain', categoriesAuxXml([{ value: 0, name: 'none' }, { value: 2, name: 'B', color: '#ffffff' }])));
    expect(view.categories).toEqual(['none', '', 'B']);
    expect(view.rat).toEqual({ columns: ['Value', 'Name'], rows: [[0, 'none'], [2, 'B']] });
  });
});

describe('categoriesAuxXml refusals', () => {
  it.each([-1, 1.5, 256])('refuses value %d', (value) => {
    expect(() => categoriesAuxXml([{ value, name: 'x' }])).toThrow(RangeError);
  });
});
