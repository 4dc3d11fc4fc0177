import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import {
  lambert72ToWgs84,
  wgs84ToLambert72,
  wgs84ToWebMercator,
} from '../../src/geo/crs.js';
import { LAMBERT72_PROJ4 } from '../../src/geo/lambert72.js';

// Control points produced by GDAL's gdaltransform (GDAL 3.6.2, PROJ 9.1.1, no datum grids installed, so PROJ applies
// "BD72 to WGS 84 (3)", EPSG:15929):
//   gdaltransform -s_srs EPSG:4326 -t_srs EPSG:31370 -output_xy   (input lon lat; output x y)
//   gdaltransform -s_srs EPSG:31370 -t_srs EPSG:4326 -output_xy   (input x y; output lon lat)
/** [label, lon, lat, x, y] */
const FORWARD: readonly (readonly [string, number, number, number, number])[] = [
  ['Brussels Grand-Place', 4.3525, 50.8467, 148855.422655159, 170699.675852777],
  ['Ghent Korenmarkt', 3.7215, 51.0546, 104618.685132224, 194024.60209479],
  ['Antwerp Grote Markt', 4.4003, 51.2213, 152203.683337382, 212373.296234172],
  ['Liège Place Saint-Lambert', 5.5736, 50.6452, 235212.584439687, 148977.286962421],
  ['Arlon', 5.8156, 49.6833, 254411.600993948, 42312.3636109773],
  ['Ostend', 2.9186, 51.23, 48710.6528921207, 214328.909023922],
  ['Bastogne', 5.7156, 50.0003, 246556.168898385, 77429.654918802],
  ['Menen, French border', 3.081, 50.7795, 59183.950948458, 164010.945079211],
  ['Maastricht, beyond the Dutch border', 5.6855, 50.8514, 242718.921433066, 172045.39538714],
  ['Losheimergraben, German border', 6.4032, 50.3237, 294854.061502267, 114509.972520012],
  ['De Panne, French border at the coast', 2.5457, 51.0891, 22284.677957221, 199232.046574952],
];

/** [x, y, lon, lat] */
const INVERSE: readonly (readonly [number, number, number, number])[] = [
  [150000, 170000, 4.36875214090419, 50.8404112831179],
  [104120, 193640, 3.71443610327142, 51.0511037234205],
  [149680, 171120, 4.36420813598142, 50.8504794787372],
  [100000, 200000, 3.65481078867414, 51.1079295681405],
  [250000, 50000, 5.75647333024342, 49.753161208374],
  [50000, 210000, 2.93824826166522, 51.1913219326632],
  [290000, 120000, 6.33710212375858, 50.3742162268092],
  [200000, 150000, 5.07589552172531, 50.6584719898069],
  [20000, 20000, 2.5748748350729, 49.4777468330847],
  [300000, 260000, 6.53505343138024, 51.6296733278809],
];

/** Ground distance between two nearby WGS 84 positions, metres (equirectangular; exact enough below 1 km). */
function groundDistanceM(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const r = 6371008.8;
  const rad = Math.PI / 180;
  const dx = (lon2 - lon1) * rad * Math.cos(((lat1 + lat2) / 2) * rad) * r;
  const dy = (lat2 - lat1) * rad * r;
  return Math.hypot(dx, dy);
}

describe('WGS 84 ↔ Belgian Lambert 72 against GDAL control points', () => {
  it.each(FORWARD)('forward: %s within 1 m (in practice < 1 mm)', (_label, lon, lat, x, y) => {
    const [px, py] = wgs84ToLambert72(lon, lat);
    expect(Math.hypot(px - x, py - y)).toBeLessThan(1);
    expect(Math.hypot(px - x, py - y)).toBeLessThan(0.001);
  });

  it.each(FORWARD)('inverse of the forward result: %s within 1 m', (_label, lon, lat, x, y) => {
    const [plon, plat] = lambert72ToWgs84(x, y);
    expect(groundDistanceM(plon, plat, lon, lat)).toBeLessThan(1);
    expect(groundDistanceM(plon, plat, lon, lat)).toBeLessThan(0.001);
  });

  it.each(INVERSE)('inverse: (%d, %d) within 1 m', (x, y, lon, lat) => {
    const [plon, plat] = lambert72ToWgs84(x, y);
    expect(groundDistanceM(plon, plat, lon, lat)).toBeLessThan(0.001);
  });

  it('round-trips to below a millimetre', () => {
    for (const [, lon, lat] of FORWARD) {
      const [x, y] = wgs84ToLambert72(lon, lat);
      const [lon2, lat2] = lambert72ToWgs84(x, y);
      expect(groundDistanceM(lon, lat, lon2, lat2)).toBeLessThan(0.001);
    }
  });

  it('exports a proj string that carries the 7-parameter datum shift', () => {
    expect(LAMBERT72_PROJ4).toContain('+proj=lcc');
    expect(LAMBERT72_PROJ4).toContain('+towgs84=-106.8686,52.2978,-103.7239,0.3366,-0.457,1.8422,-1.2747');
  });
});

describe('WGS 84 ↔ Web Mercator', () => {
  // gdaltransform -s_srs EPSG:4326 -t_srs EPSG:3857 -output_xy (GDAL 3.6.2)
  const POINTS: readonly (readonly [number, number, number, number])[] = [
    [4.3525, 50.8467, 484518.083677723, 6594221.39535523],
    [-0.1278, 51.5074, -14226.6309233804, 6711542.47558763],
    [3.0573, 50.6292, 340337.079202275, 6555963.74847768],
  ];

  it.each(POINTS)('(%d, %d) matches GDAL to a millimetre', (lon, lat, x, y) => {
    const [px, py] = wgs84ToWebMercator(lon, lat);
    expect(Math.hypot(px - x, py - y)).toBeLessThan(0.001);
  });

  it('rejects latitudes Web Mercator cannot represent', () => {
    expect(() => wgs84ToWebMercator(0, 89)).toThrow(ValidationError);
    expect(wgs84ToWebMercator(180, 0)[0]).toBeCloseTo(20037508.342789244, 3);
  });
});

describe('input validation', () => {
  const bad: readonly (readonly [number, number])[] = [
    [Number.NaN, 50],
    [4, Number.NaN],
    [Number.POSITIVE_INFINITY, 50],
    [4, Number.NEGATIVE_INFINITY],
    [180.0001, 50],
    [-180.0001, 50],
    [4, 90.0001],
    [4, -90.0001],
  ];

  it.each(bad)('wgs84ToLambert72(%d, %d) throws ValidationError', (lon, lat) => {
    expect(() => wgs84ToLambert72(lon, lat)).toThrow(ValidationError);
    expect(() => wgs84ToWebMercator(lon, lat)).toThrow(ValidationError);
  });

  it('rejects non-finite projected coordinates', () => {
    expect(() => lambert72ToWgs84(Number.NaN, 0)).toThrow(ValidationError);
    expect(() => lambert72ToWgs84(0, Number.POSITIVE_INFINITY)).toThrow(ValidationError);
  });

  it('rejects non-numbers that slip past the type system', () => {
    expect(() => wgs84ToLambert72('4' as unknown as number, 50)).toThrow(ValidationError);
  });

  it('accepts the extreme valid values', () => {
    expect(() => wgs84ToLambert72(-180, 0)).not.toThrow();
    expect(() => wgs84ToLambert72(180, 0)).not.toThrow();
  });
});
