import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { lambert72ToWgs84, wgs84ToLambert72 } from '../../src/geo/crs.js';
import { createRandom } from '../../src/util/random.js';

// Compares the proj4 transforms with a live `gdaltransform` (Debian gdal-bin; CI installs it). Only the comparison is
// skipped when the binary is absent. Points are pseudo-random over Belgium's box with a fixed seed, so every run checks
// the same 200 points.

/** True when `gdaltransform` can be started. */
function hasGdalTransform(): boolean {
  const probe = spawnSync('gdaltransform', ['--version'], { encoding: 'utf8' });
  return probe.error === undefined && probe.status === 0;
}

/** Runs gdaltransform on "a b" lines and returns the first two numbers of each output line. */
function gdalTransform(sourceSrs: string, targetSrs: string, points: readonly (readonly number[])[]): number[][] {
  const input = points.map(([a, b]) => `${a} ${b}`).join('\n') + '\n';
  const run = spawnSync('gdaltransform', ['-s_srs', sourceSrs, '-t_srs', targetSrs, '-output_xy'], {
    input,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`gdaltransform failed: ${run.stderr}`);
  return run.stdout
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).slice(0, 2).map(Number));
}

const GDAL = hasGdalTransform();
const COUNT = 200;

describe('proj4 against a live gdaltransform', () => {
  it.skipIf(!GDAL)(`agrees within 1 m on ${COUNT} pseudo-random points, both directions`, () => {
    const random = createRandom(31370);
    const lonLat: [number, number][] = [];
    for (let i = 0; i < COUNT; i++) lonLat.push([2.5 + random.next() * 4, 49.45 + random.next() * 2.1]);

    const gdalXY = gdalTransform('EPSG:4326', 'EPSG:31370', lonLat);
    expect(gdalXY).toHaveLength(COUNT);
    let worstForward = 0;
    lonLat.forEach(([lon, lat], i) => {
      const [x, y] = wgs84ToLambert72(lon, lat);
      worstForward = Math.max(worstForward, Math.hypot(x - gdalXY[i][0], y - gdalXY[i][1]));
    });
    expect(worstForward).toBeLessThan(1);

    const xy = lonLat.map(([lon, lat]) => wgs84ToLambert72(lon, lat));
    const gdalLonLat = gdalTransform('EPSG:31370', 'EPSG:4326', xy);
    let worstInverse = 0;
    xy.forEach(([x, y], i) => {
      const [lon, lat] = lambert72ToWgs84(x, y);
      const [glon, glat] = gdalLonLat[i];
      const dx = (lon - glon) * 111_320 * Math.cos((lat * Math.PI) / 180);
      const dy = (lat - glat) * 110_574;
      worstInverse = Math.max(worstInverse, Math.hypot(dx, dy));
    });
    expect(worstInverse).toBeLessThan(1);
  });
});
