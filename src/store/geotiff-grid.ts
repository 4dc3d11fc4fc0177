/**
 * Placing a GeoTIFF on a dataset grid: it must be georeferenced in EPSG:31370, north-up, with the dataset's
 * resolution, its corner on the dataset's cell lattice and its extent inside the dataset's. The result is the window
 * of dataset cells it covers. Every refusal is a `ValidationError` that says what is wrong with the file.
 */
import { fromFile, type GeoTIFFImage } from 'geotiff';
import { ValidationError } from '../errors.js';
import { DATASET_CRS_EPSG } from './crs.js';
import type { GridGeometry } from './dataset-types.js';
import { checkCrs, failValidation } from './spec-check.js';

/** GeoTIFF key values: user-defined CRS, and the raster type where the tie point is a pixel centre. */
const USER_DEFINED = 32767;
const PIXEL_IS_POINT = 2;

/** The dataset cells a GeoTIFF covers: rows row0..row0+rows-1, columns col0..col0+cols-1. */
export interface GridWindow {
  readonly row0: number;
  readonly col0: number;
  readonly rows: number;
  readonly cols: number;
}

/** An opened GeoTIFF placed on the dataset grid. */
export interface PlacedGeoTiff {
  readonly image: GeoTIFFImage;
  readonly window: GridWindow;
  readonly bands: number;
  /** GDAL nodata value, or undefined; NaN samples count as nodata too. */
  readonly noData: number | undefined;
}

function epsgOf(keys: Record<string, unknown>): number {
  const projected = keys.ProjectedCSTypeGeoKey;
  const geographic = keys.GeographicTypeGeoKey;
  const code = typeof projected === 'number' ? projected : typeof geographic === 'number' ? geographic : undefined;
  if (code === undefined) throw new ValidationError('GeoTIFF has no CRS (no EPSG code in its GeoKeys).');
  if (code === USER_DEFINED) {
    throw new ValidationError(`GeoTIFF has a user-defined CRS; it must be EPSG:${DATASET_CRS_EPSG} (gdal_translate -a_srs EPSG:${DATASET_CRS_EPSG}).`);
  }
  return code;
}

const near = (a: number, b: number, tolerance: number) => Math.abs(a - b) <= tolerance;

/** Opens `path` and places its first image on `grid`; throws `ValidationError` if it does not fit exactly. */
export async function placeGeoTiff(path: string, grid: GridGeometry): Promise<PlacedGeoTiff> {
  let image: GeoTIFFImage;
  try {
    image = await (await fromFile(path)).getImage();
  } catch (cause) {
    throw new ValidationError(`Cannot read ${path} as a GeoTIFF: ${(cause as Error).message}`, { cause });
  }
  const keys = image.getGeoKeys() as Record<string, unknown> | null;
  const fd = image.getFileDirectory();
  const hasTransform = fd.hasTag('ModelTransformation') || (fd.hasTag('ModelTiepoint') && fd.hasTag('ModelPixelScale'));
  if (!keys || !hasTransform) throw new ValidationError('GeoTIFF has no georeferencing (no GeoKeys or no pixel-to-map transform).');
  checkCrs(epsgOf(keys), failValidation, 'GeoTIFF');
  const transform = fd.getValue('ModelTransformation') as number[] | undefined;
  if (transform && (transform[1] !== 0 || transform[4] !== 0)) throw new ValidationError('GeoTIFF is rotated or skewed; only north-up rasters can be imported.');
  const [ox, oy] = image.getOrigin();
  const [rx, ry] = image.getResolution();
  const res = grid.resolution_m;
  const eps = res * 1e-6;
  if (!(ry < 0)) throw new ValidationError('GeoTIFF is not north-up (its rows run south to north).');
  if (!near(rx, res, eps) || !near(-ry, res, eps)) {
    throw new ValidationError(`GeoTIFF resolution ${rx} x ${-ry} m does not match the dataset resolution ${res} m.`);
  }
  // Corner of the first pixel; a PixelIsPoint tie point names the pixel centre instead.
  const half = keys.GTRasterTypeGeoKey === PIXEL_IS_POINT ? res / 2 : 0;
  const left = ox - half;
  const top = oy + half;
  const col = (left - (grid.x0 - res / 2)) / res;
  const row = ((grid.y0 + res / 2) - top) / res;
  if (!near(col, Math.round(col), 1e-6) || !near(row, Math.round(row), 1e-6)) {
    throw new ValidationError(
      `GeoTIFF grid is not aligned with the dataset grid: its corner (${left}, ${top}) is not on the ${res} m cell lattice ` +
      `through the dataset corner (${grid.x0 - res / 2}, ${grid.y0 + res / 2}).`,
    );
  }
  const window: GridWindow = { row0: Math.round(row), col0: Math.round(col), rows: image.getHeight(), cols: image.getWidth() };
  if (window.row0 < 0 || window.col0 < 0 || window.row0 + window.rows > grid.ny || window.col0 + window.cols > grid.nx) {
    throw new ValidationError(
      `GeoTIFF extent (rows ${window.row0}..${window.row0 + window.rows - 1}, columns ${window.col0}..${window.col0 + window.cols - 1} ` +
      `of the dataset grid) is outside the dataset's ${grid.ny} x ${grid.nx} cells.`,
    );
  }
  const noData = image.getGDALNoData();
  return { image, window, bands: image.getSamplesPerPixel(), noData: noData === null ? undefined : noData };
}

/**
 * Reads dataset rows `rowStart..rowEnd-1` (inside the window) of bands `bandStart..bandEnd-1` as one array per band,
 * row-major over the window's columns.
 */
export async function readWindowRows(
  placed: PlacedGeoTiff, rowStart: number, rowEnd: number, bandStart: number, bandEnd: number,
): Promise<ArrayLike<number>[]> {
  const { row0, cols } = placed.window;
  const samples = Array.from({ length: bandEnd - bandStart }, (_, i) => bandStart + i);
  const rasters = await placed.image.readRasters({ window: [0, rowStart - row0, cols, rowEnd - row0], samples, interleave: false });
  return Array.from(rasters as unknown as ArrayLike<number>[]);
}
