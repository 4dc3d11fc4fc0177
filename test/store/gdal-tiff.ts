/**
 * GeoTIFFs for import tests, made by Debian's gdal-bin: values are written as a raw ENVI float32 band-sequential
 * file and converted with gdal_translate, which attaches the CRS, corner coordinates and nodata value asked for.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Shape, values and georeferencing of a test GeoTIFF. */
export interface TiffSpec {
  readonly rows: number;
  readonly cols: number;
  readonly bands?: number;
  /** Value of (band, row, col); rows run north to south. */
  readonly value: (band: number, row: number, col: number) => number;
  /** Upper-left corner and pixel size; omit `ulx` for a GeoTIFF without georeferencing. */
  readonly ulx?: number;
  readonly uly?: number;
  readonly pixel?: number;
  /** EPSG code; default 31370. */
  readonly epsg?: number;
  readonly nodata?: number;
}

/** Writes `<dir>/<name>.tif` and returns its path. */
export function makeGeoTiff(dir: string, name: string, spec: TiffSpec): string {
  const bands = spec.bands ?? 1;
  const data = new Float32Array(bands * spec.rows * spec.cols);
  for (let b = 0; b < bands; b++) {
    for (let r = 0; r < spec.rows; r++) {
      for (let c = 0; c < spec.cols; c++) data[(b * spec.rows + r) * spec.cols + c] = spec.value(b, r, c);
    }
  }
  const raw = join(dir, `${name}.bin`);
  writeFileSync(raw, new Uint8Array(data.buffer));
  writeFileSync(join(dir, `${name}.hdr`), [
    'ENVI', `samples = ${spec.cols}`, `lines = ${spec.rows}`, `bands = ${bands}`, 'header offset = 0',
    'file type = ENVI Standard', 'data type = 4', 'interleave = bsq', 'byte order = 0', '',
  ].join('\n'));
  const out = join(dir, `${name}.tif`);
  const args = ['-q', '-of', 'GTiff'];
  if (spec.ulx !== undefined && spec.uly !== undefined && spec.pixel !== undefined) {
    const lrx = spec.ulx + spec.cols * spec.pixel;
    const lry = spec.uly - spec.rows * spec.pixel;
    args.push('-a_srs', `EPSG:${spec.epsg ?? 31370}`, '-a_ullr', String(spec.ulx), String(spec.uly), String(lrx), String(lry));
  }
  if (spec.nodata !== undefined) args.push('-a_nodata', String(spec.nodata));
  execFileSync('gdal_translate', [...args, raw, out], { stdio: ['ignore', 'ignore', 'pipe'] });
  return out;
}
