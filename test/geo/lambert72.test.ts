/**
 * The one EPSG:31370 definition (src/geo/lambert72.ts) against GDAL at known places, both directions, as the service
 * transforms and as a reader of a dataset's metadata would: the proj4 string in the `crs` variable is the same one.
 *
 * Tolerance 5 cm. The kept string (projection + 7-parameter BD72 → WGS 84 shift, EPSG:15929) agrees with GDAL below
 * 1 mm at every point; the projection alone, without `+towgs84` (what `gdalsrsinfo -o proj4` prints, and what the
 * dataset metadata carried before), is 104–114 m off, so the tolerance tells the two apart by three orders of
 * magnitude on either side.
 */
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { lambert72ToWgs84, wgs84ToLambert72, WGS84_PROJ4 } from '../../src/geo/crs.js';
import { LAMBERT72_PROJ4 } from '../../src/geo/lambert72.js';
import { LAMBERT72_GRID_MAPPING } from '../../src/store/crs.js';

const TOLERANCE_M = 0.05;

// GDAL 3.6.2 with PROJ 9.1.1 (Debian gdal-bin, no datum grids), longitude first:
//   echo "LON LAT" | gdaltransform -s_srs OGC:CRS84 -t_srs EPSG:31370
/** [place, lon, lat, x, y] */
const FORWARD: readonly (readonly [string, number, number, number, number])[] = [
  ['Brussels Grand-Place', 4.35224, 50.84675, 148837.113124096, 170705.241759815],
  ['Liège Place Saint-Lambert', 5.5736, 50.6452, 235212.584439687, 148977.286962421],
  ['Ostend', 2.9186, 51.23, 48710.6528921207, 214328.909023922],
  ['Arlon', 5.8156, 49.6833, 254411.600993948, 42312.3636109773],
];

//   echo "X Y" | gdaltransform -s_srs EPSG:31370 -t_srs OGC:CRS84
/** [place, x, y, lon, lat] */
const INVERSE: readonly (readonly [string, number, number, number, number])[] = [
  ['Brussels Grand-Place', 148837, 170705, 4.35223839035307, 50.8467478290045],
  ['Liège Place Saint-Lambert', 235213, 148977, 5.5736058044312, 50.6451973626333],
  ['Ostend', 48711, 214329, 2.91860493914914, 51.2300008807297],
  ['Arlon', 254412, 42312, 5.81560542494587, 49.6832966646741],
];

/** The projection of EPSG:31370 without a datum shift: the definition the tolerance must reject. */
const WITHOUT_SHIFT = LAMBERT72_PROJ4.replace(/ \+towgs84=\S+/, '');

/** Ground distance between two nearby WGS 84 positions, metres (equirectangular; exact enough below 1 km). */
function groundDistanceM(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const rad = Math.PI / 180;
  const dx = (lon2 - lon1) * rad * Math.cos(((lat1 + lat2) / 2) * rad) * 6371008.8;
  return Math.hypot(dx, (lat2 - lat1) * rad * 6371008.8);
}

describe('EPSG:31370 against gdaltransform at known places', () => {
  it.each(FORWARD)('WGS 84 → Lambert 72 at %s within 5 cm', (_place, lon, lat, x, y) => {
    const [px, py] = wgs84ToLambert72(lon, lat);
    expect(Math.hypot(px - x, py - y)).toBeLessThan(TOLERANCE_M);
  });

  it.each(INVERSE)('Lambert 72 → WGS 84 at %s within 5 cm', (_place, x, y, lon, lat) => {
    const [plon, plat] = lambert72ToWgs84(x, y);
    expect(groundDistanceM(plon, plat, lon, lat)).toBeLessThan(TOLERANCE_M);
  });

  it('is the string the datasets carry, and it reproduces GDAL from the metadata alone', () => {
    expect(LAMBERT72_GRID_MAPPING.proj4).toBe(LAMBERT72_PROJ4);
    const fromMetadata = proj4(WGS84_PROJ4, LAMBERT72_GRID_MAPPING.proj4 as string);
    for (const [, lon, lat, x, y] of FORWARD) {
      const [px, py] = fromMetadata.forward([lon, lat]);
      expect(Math.hypot(px! - x, py! - y)).toBeLessThan(TOLERANCE_M);
    }
  });

  it('rejects the projection without the datum shift: about 100 m off everywhere', () => {
    const withoutShift = proj4(WGS84_PROJ4, WITHOUT_SHIFT);
    expect(WITHOUT_SHIFT).not.toContain('towgs84');
    for (const [, lon, lat, x, y] of FORWARD) {
      const [px, py] = withoutShift.forward([lon, lat]);
      expect(Math.hypot(px! - x, py! - y)).toBeGreaterThan(100);
    }
  });
});
