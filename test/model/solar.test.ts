import { describe, expect, it } from 'vitest';
import { clearSkyDirectNormal, irradiance, sunPosition, sunriseSolarHour } from '../../src/model/solar.js';
import type { SunPosition } from '../../src/model/solar.js';

const BRUSSELS = { lat: 50.85, lon: 4.35 };

function at(iso: string, lat = BRUSSELS.lat, lon = BRUSSELS.lon): SunPosition {
  return sunPosition(Date.parse(iso), lat, lon, { elevation: 0, azimuth: 0, declination: 0, equationOfTime: 0 });
}

/** The sun's highest point over a UTC day, searched minute by minute. */
function noon(day: string): SunPosition {
  let best = at(`${day}T00:00:00Z`);
  for (let min = 0; min < 1440; min++) {
    const p = at(new Date(Date.parse(`${day}T00:00:00Z`) + min * 60_000).toISOString());
    if (p.elevation > best.elevation) best = p;
  }
  return best;
}

describe('sunPosition (NOAA Solar Calculator equations)', () => {
  it('gives the solstice and equinox declinations and noon elevations (90° − latitude + declination)', () => {
    const june = noon('2024-06-20');
    expect(june.declination).toBeCloseTo(23.44, 1);
    expect(june.elevation).toBeCloseTo(90 - 50.85 + 23.44, 1);
    expect(june.azimuth).toBeGreaterThan(179);
    expect(june.azimuth).toBeLessThan(181);
    const march = noon('2024-03-20');
    expect(Math.abs(march.declination)).toBeLessThan(0.4);
    expect(noon('2024-12-21').elevation).toBeCloseTo(90 - 50.85 - 23.44, 1);
  });

  it('gives the equation of time extremes: about −14.2 min in mid-February and +16.4 min in early November', () => {
    expect(at('2024-02-11T12:00:00Z').equationOfTime).toBeCloseTo(-14.2, 0);
    expect(at('2024-11-03T12:00:00Z').equationOfTime).toBeCloseTo(16.4, 0);
  });

  it('puts the morning sun in the east and the evening sun in the west, below the horizon at midnight', () => {
    const morning = at('2024-06-21T05:00:00Z');
    expect(morning.azimuth).toBeGreaterThan(45);
    expect(morning.azimuth).toBeLessThan(110);
    const evening = at('2024-06-21T18:00:00Z');
    expect(evening.azimuth).toBeGreaterThan(250);
    expect(evening.azimuth).toBeLessThan(315);
    expect(at('2024-06-21T23:40:00Z').elevation).toBeLessThan(0);
  });

  it('gives sunrise hours that lengthen summer days (solar time)', () => {
    // Geometric day length at 50.85° N: 16.3 h at the June solstice, 7.7 h at the December one.
    expect(sunriseSolarHour(23.44, 50.85)).toBeCloseTo(3.85, 1);
    expect(sunriseSolarHour(-23.44, 50.85)).toBeCloseTo(8.15, 1);
    expect(sunriseSolarHour(0, 50.85)).toBeCloseTo(6, 5);
    expect(sunriseSolarHour(23.44, 80)).toBe(0);
  });
});

describe('irradiance', () => {
  it('is zero at night and gives a clear-sky summer noon near 800–900 W/m² direct normal', () => {
    expect(irradiance(-3, 172, 0, { direct: 1, diffuse: 1 })).toEqual({ direct: 0, diffuse: 0 });
    const clear = irradiance(62, 172, 0, { direct: 0, diffuse: 0 });
    expect(clear.direct).toBeGreaterThan(750);
    expect(clear.direct).toBeLessThan(950);
    expect(clear.diffuse).toBeGreaterThan(50);
    expect(clear.diffuse).toBeLessThan(150);
    const earthSunDistance = 1 + 0.033 * Math.cos((2 * Math.PI * 172) / 365);
    expect(clearSkyDirectNormal(62)).toBeCloseTo(clear.direct / earthSunDistance, 6);
  });

  it('moves irradiance from beam to diffuse with cloud and cuts the global by Kasten–Czeplak', () => {
    const global = (i: { direct: number; diffuse: number }) => i.direct * Math.sin((45 * Math.PI) / 180) + i.diffuse;
    const clear = irradiance(45, 100, 0, { direct: 0, diffuse: 0 });
    const half = irradiance(45, 100, 0.5, { direct: 0, diffuse: 0 });
    const overcast = irradiance(45, 100, 1, { direct: 0, diffuse: 0 });
    expect(half.direct).toBeCloseTo(clear.direct / 2, 6);
    expect(half.diffuse).toBeGreaterThan(clear.diffuse);
    expect(overcast.direct).toBe(0);
    expect(global(overcast)).toBeCloseTo(0.25 * global(clear), 6);
  });
});
