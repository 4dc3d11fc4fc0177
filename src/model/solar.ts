/**
 * Sun position and surface irradiance for the reference weather year.
 *
 * Position: the NOAA Solar Calculator equations (NOAA Global Monitoring Laboratory, after Meeus 1991, "Astronomical
 * Algorithms"): geometric elevation (no refraction) accurate to ~0.01° for years 1800–2100, which is far below what an
 * hourly street-level model resolves.
 *
 * Irradiance: a clear-sky beam from Meinel & Meinel 1976 (with the Kasten & Young 1989 air mass) and the matching
 * clear-sky diffuse of Liu & Jordan 1960; cloud attenuates the global by Kasten & Czeplak 1980
 * (GHI = GHI_clear · (1 − 0.75 N^3.4)) and the beam by the chance (1 − N) that the sun is not hidden.
 */

const RAD = Math.PI / 180;
const DEG = 180 / Math.PI;

/** Solar constant, W/m² (Kopp & Lean 2011). */
const SOLAR_CONSTANT = 1361;

/** Sun geometry at one instant: degrees; azimuth clockwise from north (90 = east). */
export interface SunPosition {
  elevation: number;
  azimuth: number;
  /** Declination, degrees. */
  declination: number;
  /** Equation of time, minutes (apparent minus mean solar time). */
  equationOfTime: number;
}

/** Writes the sun's position for `utcMs` at (latDeg, lonDeg east-positive) into `out` (NOAA Solar Calculator). */
export function sunPosition(utcMs: number, latDeg: number, lonDeg: number, out: SunPosition): SunPosition {
  const julianDay = 2440587.5 + utcMs / 86_400_000;
  const jc = (julianDay - 2451545) / 36525; // Julian centuries since J2000.0
  const meanLong = mod360(280.46646 + jc * (36000.76983 + jc * 0.0003032));
  const meanAnom = 357.52911 + jc * (35999.05029 - 0.0001537 * jc);
  const ecc = 0.016708634 - jc * (0.000042037 + 0.0000001267 * jc);
  const m = meanAnom * RAD;
  const centre =
    Math.sin(m) * (1.914602 - jc * (0.004817 + 0.000014 * jc)) +
    Math.sin(2 * m) * (0.019993 - 0.000101 * jc) +
    Math.sin(3 * m) * 0.000289;
  const omega = (125.04 - 1934.136 * jc) * RAD;
  const apparentLong = (meanLong + centre - 0.00569 - 0.00478 * Math.sin(omega)) * RAD;
  const meanObliq = 23 + (26 + (21.448 - jc * (46.815 + jc * (0.00059 - jc * 0.001813))) / 60) / 60;
  const obliq = (meanObliq + 0.00256 * Math.cos(omega)) * RAD;
  const decl = Math.asin(Math.sin(obliq) * Math.sin(apparentLong));
  const y = Math.tan(obliq / 2) ** 2;
  const l0 = meanLong * RAD;
  const eot =
    4 *
    DEG *
    (y * Math.sin(2 * l0) -
      2 * ecc * Math.sin(m) +
      4 * ecc * y * Math.sin(m) * Math.cos(2 * l0) -
      0.5 * y * y * Math.sin(4 * l0) -
      1.25 * ecc * ecc * Math.sin(2 * m));
  const minutesUtc = (((utcMs % 86_400_000) + 86_400_000) % 86_400_000) / 60_000;
  const trueSolarMinutes = minutesUtc + eot + 4 * lonDeg;
  const hourAngle = (trueSolarMinutes / 4 - 180) * RAD;
  const lat = latDeg * RAD;
  const sinElev = Math.sin(lat) * Math.sin(decl) + Math.cos(lat) * Math.cos(decl) * Math.cos(hourAngle);
  out.elevation = Math.asin(Math.max(-1, Math.min(1, sinElev))) * DEG;
  // Azimuth from south, positive westward, then turned to "clockwise from north".
  const az = Math.atan2(Math.sin(hourAngle), Math.cos(hourAngle) * Math.sin(lat) - Math.tan(decl) * Math.cos(lat));
  out.azimuth = mod360(az * DEG + 180);
  out.declination = decl * DEG;
  out.equationOfTime = eot;
  return out;
}

function mod360(x: number): number {
  return ((x % 360) + 360) % 360;
}

/** Local apparent solar time (hours, 0…24) for `utcMs` at longitude lonDeg, given the equation of time (minutes). */
export function solarTimeHours(utcMs: number, lonDeg: number, equationOfTimeMin: number): number {
  const minutesUtc = (((utcMs % 86_400_000) + 86_400_000) % 86_400_000) / 60_000;
  return ((((minutesUtc + equationOfTimeMin + 4 * lonDeg) / 60) % 24) + 24) % 24;
}

/** Apparent solar time (h) of sunrise at a declination and latitude (degrees); 0 in polar day, 12 in polar night. */
export function sunriseSolarHour(declinationDeg: number, latDeg: number): number {
  const cosH = -Math.tan(latDeg * RAD) * Math.tan(declinationDeg * RAD);
  if (cosH <= -1) return 0;
  if (cosH >= 1) return 12;
  return 12 - (Math.acos(cosH) * DEG) / 15;
}

/** Irradiance components, W/m²: direct normal (beam on a surface facing the sun) and diffuse horizontal. */
export interface Irradiance {
  direct: number;
  diffuse: number;
}

/** Kasten & Young 1989 relative optical air mass at a sun elevation (degrees, > 0). */
function airMassAt(elevationDeg: number): number {
  return 1 / (Math.sin(elevationDeg * RAD) + 0.50572 * (elevationDeg + 6.07995) ** -1.6364);
}

/** Clear-sky direct normal irradiance (W/m²) at a sun elevation (degrees), mean Earth–Sun distance; 0 at night. */
export function clearSkyDirectNormal(elevationDeg: number): number {
  return elevationDeg <= 0 ? 0 : SOLAR_CONSTANT * 0.7 ** (airMassAt(elevationDeg) ** 0.678);
}

/**
 * Irradiance for a sun elevation (degrees), day of year (1-based) and cloud fraction 0…1, written into `out`.
 * Clear sky: beam transmittance τ_b = 0.7^(AM^0.678) (Meinel & Meinel 1976), diffuse transmittance
 * τ_d = 0.271 − 0.294 τ_b (Liu & Jordan 1960), both applied to I0, the solar constant corrected for the Earth–Sun
 * distance (1 + 0.033 cos(2π n / 365), Duffie & Beckman). Cloud: global × (1 − 0.75 N^3.4) (Kasten & Czeplak
 * 1980), beam × (1 − N); diffuse = global − beam · sin h.
 */
export function irradiance(elevationDeg: number, dayOfYear: number, cloud: number, out: Irradiance): Irradiance {
  if (elevationDeg <= 0) {
    out.direct = 0;
    out.diffuse = 0;
    return out;
  }
  const n = cloud < 0 ? 0 : cloud > 1 ? 1 : cloud;
  const sinH = Math.sin(elevationDeg * RAD);
  const i0 = SOLAR_CONSTANT * (1 + 0.033 * Math.cos((2 * Math.PI * dayOfYear) / 365));
  const beamTransmittance = 0.7 ** (airMassAt(elevationDeg) ** 0.678);
  const dniClear = i0 * beamTransmittance;
  const ghiClear = dniClear * sinH + i0 * (0.271 - 0.294 * beamTransmittance) * sinH;
  const ghi = ghiClear * (1 - 0.75 * n ** 3.4);
  const dni = dniClear * (1 - n);
  out.direct = dni;
  out.diffuse = Math.max(0, ghi - dni * sinH);
  return out;
}
