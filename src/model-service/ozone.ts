/**
 * Ozone for hourly records. The city datasets do not model ozone, so the model service synthesises it from an
 * oxidant budget: Ox = O3 + NO2 is nearly conserved on the street scale (NO + O3 → NO2 + O2 titrates ozone into NO2),
 * so local ozone is the regional oxidant minus what local NO2 has taken:
 *
 *   Ox_ppb = 33 + 9·cos(2π(doy − 172)/365.25) + 18·max(0, sin(sun elevation))   (regional oxidant, ppb)
 *   O3_ppb = max(1, Ox_ppb − 0.9·NO2_ppb)                                        (10 % of local NO2 is primary)
 *   O3 µg/m3 = 2.00·O3_ppb, NO2_ppb = NO2 µg/m3 / 1.91                           (20 °C, 1013 hPa)
 *
 * The seasonal term peaks at the summer solstice and the sunlit term follows photochemical production, so ozone is
 * highest on summer afternoons away from traffic and near zero in a winter rush hour in a street canyon: the
 * anticorrelation with NO2 that measurements show. Typical results: 80–100 µg/m3 on summer afternoons in open streets,
 * 2–20 µg/m3 in winter evening canyons.
 */
import { sunPosition, type SunPosition } from '../model/solar.js';

/** µg/m3 per ppb at 20 °C and 1013.25 hPa (molar masses 48.00 and 46.01 g/mol over 24.04 L/mol). */
export const O3_UG_PER_PPB = 2.0;
const NO2_UG_PER_PPB = 1.91;

/** Day of year (1 … 366) of a UTC instant. */
export function dayOfYear(utcMs: number): number {
  const date = new Date(utcMs);
  return Math.floor((utcMs - Date.UTC(date.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
}

/** Regional oxidant (ppb) for a day of year and a solar elevation (degrees). */
export function regionalOxidantPpb(doy: number, sunElevationDeg: number): number {
  const season = Math.cos((2 * Math.PI * (doy - 172)) / 365.25);
  const sunlit = Math.max(0, Math.sin((sunElevationDeg * Math.PI) / 180));
  return 33 + 9 * season + 18 * sunlit;
}

/** Ozone (µg/m3) for a local NO2 (µg/m3) and a regional oxidant (ppb); NaN in, NaN out. */
export function ozoneFromNo2(no2Ugm3: number, oxidantPpb: number): number {
  if (Number.isNaN(no2Ugm3)) return Number.NaN;
  const o3Ppb = Math.max(1, oxidantPpb - 0.9 * (Math.max(0, no2Ugm3) / NO2_UG_PER_PPB));
  return o3Ppb * O3_UG_PER_PPB;
}

const SUN: SunPosition = { elevation: 0, azimuth: 0, declination: 0, equationOfTime: 0 };

/** The regional oxidant at a real instant and place (WGS 84 degrees). */
export function oxidantAt(utcMs: number, lat: number, lon: number): number {
  sunPosition(utcMs, lat, lon, SUN);
  return regionalOxidantPpb(dayOfYear(utcMs), SUN.elevation);
}
