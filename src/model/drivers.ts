import { buildLocalClock } from './local-clock.js';
import type { Meteorology } from './meteorology.js';
import { meanRadiantDelta } from './radiant.js';
import { SECTORS } from './cell-features.js';

/**
 * City-wide hourly drivers of the stand-in model, derived once per dataset from the reference weather year and shared
 * with generator threads (SharedArrayBuffers). Per-cell physics in model/cell-physics.ts scales them by cell features.
 *
 * Magnitudes are tuned so annual means look like Brussels measurements (street NO2 20–45, background ~14; PM2.5 8–12;
 * PM10 15–22 µg/m3; IRCEL-CELINE annual reports) — see docs/datasets.md.
 */
export interface HourlyDrivers {
  readonly hours: number;
  /** Regional NO2 background, µg/m3 (already scaled by dispersion). */
  readonly bgNo2: Float32Array;
  /** Traffic NO2 increment per unit traffic exposure and canyon factor, µg/m3. */
  readonly trafficNo2: Float32Array;
  /** Regional PM2.5, µg/m3. */
  readonly bgPm25: Float32Array;
  /** Coarse PM10−PM2.5 background, µg/m3 (≥ 0, so PM10 ≥ PM2.5 by construction). */
  readonly coarsePm: Float32Array;
  /** Traffic PM10 increment (exhaust, brakes, resuspension) per unit exposure, µg/m3; PM2.5 takes 40 % of it. */
  readonly trafficPm: Float32Array;
  /** Reference wind at 10 m, m/s, and the sector it blows from (0..15, north = 0). */
  readonly wind10: Float32Array;
  /** The hour's strongest gust at the open reference site, m/s. */
  readonly gust10: Float32Array;
  readonly windSector: Uint8Array;
  readonly ta: Float32Array;
  readonly rh: Float32Array;
  /** Sun elevation (radians; ≤ 0 at night) and the azimuth sector the sun is in. */
  readonly sunElevation: Float32Array;
  readonly sunSector: Uint8Array;
  /** Tmrt − Ta (K) for [sunlit open, sunlit enclosed, shaded open, shaded enclosed] per hour: [t * 4 + k]. */
  readonly radiant: Float32Array;
}

/** Enclosed corner of the sky-view interpolation (a narrow courtyard). */
export const ENCLOSED_SKY_VIEW = 0.2;

function f32(n: number): Float32Array {
  return new Float32Array(new SharedArrayBuffer(n * 4));
}

/** Weekday traffic profile by local hour (relative; peaks 07–09 and 16–19), from typical urban count curves. */
const WEEKDAY_PROFILE = [
  0.25, 0.18, 0.15, 0.15, 0.22, 0.45, 0.9, 1.55, 1.75, 1.45, 1.15, 1.1,
  1.15, 1.15, 1.2, 1.35, 1.6, 1.75, 1.55, 1.2, 0.9, 0.7, 0.55, 0.38,
];

/** Traffic intensity for a local hour and weekday; Saturdays ×0.75 with a late start, Sundays ×0.55. */
function trafficProfile(hour: number, weekday: number): number {
  if (weekday === 6) return 0.75 * WEEKDAY_PROFILE[Math.max(0, hour - 1)];
  if (weekday === 0) return 0.55 * WEEKDAY_PROFILE[Math.max(0, hour - 2)];
  return WEEKDAY_PROFILE[hour];
}

/** Derives the hourly drivers from the weather year, in the city's time zone. */
export function buildDrivers(met: Meteorology, timeZone: string): HourlyDrivers {
  const hours = met.hours;
  const clock = buildLocalClock(met.startUtcMs, hours, timeZone);
  const d = {
    hours,
    bgNo2: f32(hours), trafficNo2: f32(hours), bgPm25: f32(hours), coarsePm: f32(hours), trafficPm: f32(hours),
    wind10: f32(hours), gust10: f32(hours), windSector: new Uint8Array(new SharedArrayBuffer(hours)),
    ta: f32(hours), rh: f32(hours), sunElevation: f32(hours),
    sunSector: new Uint8Array(new SharedArrayBuffer(hours)), radiant: f32(hours * 4),
  };
  for (let t = 0; t < hours; t++) {
    const dayOfYear = t / 24;
    // 1 in mid-January, 0 in mid-July.
    const winter = 0.5 + 0.5 * Math.cos((2 * Math.PI * (dayOfYear - 15)) / 365);
    const disp = met.dispersion[t];
    const wind = met.wind10[t];
    const dilution = 1.6 / (1 + 0.35 * wind);
    const traffic = trafficProfile(clock.hour[t], clock.weekday[t]);
    d.bgNo2[t] = (10.5 + 6 * winter) * disp;
    d.trafficNo2[t] = 36 * traffic * Math.pow(disp, 0.8) * dilution;
    d.bgPm25[t] = (7.4 + 3.2 * winter) * met.pmEpisode[t] * Math.sqrt(disp);
    d.coarsePm[t] = (5.5 + 3 * (1 - winter)) * (met.rh[t] > 90 ? 0.6 : 1) * Math.sqrt(disp);
    d.trafficPm[t] = 5 * traffic * Math.pow(disp, 0.8) * dilution;
    d.wind10[t] = wind;
    d.gust10[t] = met.gust10[t];
    d.windSector[t] = Math.round(((met.windDir[t] % 360) + 360) / (360 / SECTORS)) % SECTORS;
    d.ta[t] = met.ta[t];
    d.rh[t] = met.rh[t];
    const elevation = met.sunElevation[t];
    d.sunElevation[t] = (elevation * Math.PI) / 180;
    d.sunSector[t] = Math.round(((met.sunAzimuth[t] % 360) + 360) / (360 / SECTORS)) % SECTORS;
    const dir = met.directIrradiance[t];
    const dif = met.diffuseIrradiance[t];
    const cloud = met.cloud[t];
    const ta = met.ta[t];
    d.radiant[t * 4] = meanRadiantDelta(elevation, dir, dif, 0, 1, cloud, ta);
    d.radiant[t * 4 + 1] = meanRadiantDelta(elevation, dir, dif, 0, ENCLOSED_SKY_VIEW, cloud, ta);
    d.radiant[t * 4 + 2] = meanRadiantDelta(elevation, dir, dif, 1, 1, cloud, ta);
    d.radiant[t * 4 + 3] = meanRadiantDelta(elevation, dir, dif, 1, ENCLOSED_SKY_VIEW, cloud, ta);
  }
  return d;
}
