/**
 * Coordinate reference systems of the service: WGS 84 (EPSG:4326, what clients send), Belgian Lambert 72
 * (EPSG:31370, the grid of every dataset; its definition with the BD72 datum shift is geo/lambert72.ts) and Web
 * Mercator (EPSG:3857, map tiles). Agreement with `gdaltransform` (GDAL 3.6.2, PROJ 9.1.1) is below a millimetre; see
 * test/geo/crs.test.ts, test/geo/lambert72.test.ts and docs/geography.md.
 */
import proj4 from 'proj4';
import { ValidationError } from '../errors.js';
import { LAMBERT72_PROJ4 } from './lambert72.js';

/** proj4 definition of EPSG:3857 (spherical Web Mercator), as `gdalsrsinfo -o proj4 EPSG:3857` prints it. */
export const WEB_MERCATOR_PROJ4 =
  '+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +no_defs';

/** proj4 definition of WGS 84 geographic coordinates (longitude, latitude in degrees). */
export const WGS84_PROJ4 = '+proj=longlat +datum=WGS84 +no_defs';

/** Largest latitude Web Mercator represents: the square world of EPSG:3857 ends here. */
const WEB_MERCATOR_MAX_LAT = 85.0511287798066;

/** Half the width of the Web Mercator world, metres (π × 6378137). */
export const WEB_MERCATOR_HALF_WORLD_M = Math.PI * 6378137;

const toLambert = proj4(WGS84_PROJ4, LAMBERT72_PROJ4);
const toMercator = proj4(WGS84_PROJ4, WEB_MERCATOR_PROJ4);

/** Throws `ValidationError` unless `lon` and `lat` are finite degrees within −180..180 and −90..90. */
export function assertLonLat(lon: number, lat: number): void {
  if (typeof lon !== 'number' || !Number.isFinite(lon) || lon < -180 || lon > 180) {
    throw new ValidationError(`Longitude must be a finite number between -180 and 180, got ${String(lon)}.`);
  }
  if (typeof lat !== 'number' || !Number.isFinite(lat) || lat < -90 || lat > 90) {
    throw new ValidationError(`Latitude must be a finite number between -90 and 90, got ${String(lat)}.`);
  }
}

/** Throws `ValidationError` unless both projected coordinates are finite numbers. */
function assertFiniteXY(x: number, y: number, crs: string): void {
  if (typeof x !== 'number' || !Number.isFinite(x) || typeof y !== 'number' || !Number.isFinite(y)) {
    throw new ValidationError(`${crs} coordinates must be finite numbers, got (${String(x)}, ${String(y)}).`);
  }
}

/** Returns the pair if both members are finite, else throws: the point lies outside the projection's domain. */
function finitePair(p: readonly number[], what: string): [number, number] {
  const a = p[0];
  const b = p[1];
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b)) {
    throw new ValidationError(`The point cannot be expressed in ${what}: it lies outside the projection's domain.`);
  }
  return [a, b];
}

/** WGS 84 longitude/latitude (degrees) to Belgian Lambert 72 easting/northing (metres). */
export function wgs84ToLambert72(lon: number, lat: number): [number, number] {
  assertLonLat(lon, lat);
  return finitePair(toLambert.forward([lon, lat]), 'EPSG:31370');
}

/** Belgian Lambert 72 easting/northing (metres) to WGS 84 longitude/latitude (degrees). */
export function lambert72ToWgs84(x: number, y: number): [number, number] {
  assertFiniteXY(x, y, 'EPSG:31370');
  const [lon, lat] = finitePair(toLambert.inverse([x, y]), 'WGS 84');
  assertLonLat(lon, lat);
  return [lon, lat];
}

/** WGS 84 longitude/latitude to Web Mercator metres; latitudes beyond ±85.0511° (no finite y) are rejected. */
export function wgs84ToWebMercator(lon: number, lat: number): [number, number] {
  assertLonLat(lon, lat);
  if (Math.abs(lat) > WEB_MERCATOR_MAX_LAT) {
    throw new ValidationError(`Web Mercator covers latitudes up to ±${WEB_MERCATOR_MAX_LAT}, got ${lat}.`);
  }
  return finitePair(toMercator.forward([lon, lat]), 'EPSG:3857');
}
