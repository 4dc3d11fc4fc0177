import { createRandom, type Random } from '../util/random.js';
import { irradiance, solarTimeHours, sunPosition, sunriseSolarHour } from './solar.js';
import type { Irradiance, SunPosition } from './solar.js';
import { ar1, generateSpells, movingAverage, type SpellSeries } from './synoptic.js';
import { saturationVapourPressureHpa } from './utci.js';
import { addStormAndGusts } from './storm.js';
import { generateWind } from './wind-year.js';

/**
 * A deterministic hourly reference weather year with a Brussels-like climate (docs/datasets.md: ~3 °C in January,
 * ~18 °C in July; mean 10 m wind ~4 m/s, mostly from the south-west, one storm front gusting to ~30 m/s), the
 * city-wide driver of the stand-in model.
 *
 * Hour i is UTC hour [i, i + 1) of the year; every instantaneous quantity (sun, diurnal phase) is taken at its middle.
 * Like a typical meteorological year, each month stays near its climatology: 80 % of the 31-day running mean of the
 * synoptic temperature anomaly is removed, while day-to-day weather, spells and extremes are kept.
 */
export interface Meteorology {
  readonly year: number;
  /** 8760, or 8784 in a leap year. */
  readonly hours: number;
  /** Start of hour 0 (1 January 00:00 UTC), epoch milliseconds. */
  readonly startUtcMs: number;
  /** Air temperature, °C. */
  readonly ta: Float32Array;
  /** Relative humidity, % (40…100). */
  readonly rh: Float32Array;
  /** Wind speed at 10 m, m/s: the hourly mean at an open site (Uccle's mast). */
  readonly wind10: Float32Array;
  /** The hour's strongest gust at that open site, m/s (storm.ts): about 1.66 × the mean, more at a storm's front. */
  readonly gust10: Float32Array;
  /** Direction the wind blows from, degrees clockwise from north, [0, 360). */
  readonly windDir: Float32Array;
  /** Cloud fraction 0…1. */
  readonly cloud: Float32Array;
  /** Geometric sun elevation, degrees (negative at night). */
  readonly sunElevation: Float32Array;
  /** Sun azimuth, degrees clockwise from north. */
  readonly sunAzimuth: Float32Array;
  /** Direct normal irradiance (beam on a surface facing the sun), W/m². */
  readonly directIrradiance: Float32Array;
  /** Diffuse horizontal irradiance, W/m². */
  readonly diffuseIrradiance: Float32Array;
  /** Pollutant concentration multiplier ≥ 0.3, mean 1: high in calm, stable, cold conditions, low in strong wind. */
  readonly dispersion: Float32Array;
  /** Regional particulate multiplier ≥ 0.5, mean 1, with winter and early-spring episodes of 2.5–4×. */
  readonly pmEpisode: Float32Array;
}

/** Inputs of `generateMeteorology`; latitude and longitude (degrees, east positive) place the sun. */
export interface MeteorologyOptions {
  readonly year: number;
  readonly seed: number;
  readonly lat: number;
  readonly lon: number;
}

const HOUR_MS = 3_600_000;
const TWO_PI = 2 * Math.PI;
/** Cloud fraction at which the diurnal temperature range is its seasonal value (about the year's mean cloud). */
const CLOUD_PIVOT = 0.67;

/** Climatological air temperature at hour t, °C: 10.5 ± 7.5 K, coldest on 20 January, warmest on 21 July. */
function climatologyTa(t: number): number {
  return 10.5 - 7.5 * Math.cos((TWO_PI * ((t + 0.5) / 24 - 20)) / 365.25);
}

/** Generates the reference year; the same options always give identical arrays. */
export function generateMeteorology(opts: MeteorologyOptions): Meteorology {
  const { year, seed, lat, lon } = opts;
  if (!Number.isInteger(year) || year < 1900 || year > 2200) {
    throw new RangeError(`year must be an integer 1900–2200, got ${year}`);
  }
  if (!(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) throw new RangeError(`invalid position lat=${lat} lon=${lon}`);
  const startUtcMs = Date.UTC(year, 0, 1);
  const hours = Math.round((Date.UTC(year + 1, 0, 1) - startUtcMs) / HOUR_MS);
  const rng = createRandom(seed).fork('meteorology');
  const spells = generateSpells(rng.fork('spells'), hours);
  const f32 = () => new Float32Array(hours);
  const m = {
    year, hours, startUtcMs,
    ta: f32(), rh: f32(), wind10: f32(), gust10: f32(), windDir: f32(), cloud: f32(), sunElevation: f32(), sunAzimuth: f32(),
    directIrradiance: f32(), diffuseIrradiance: f32(), dispersion: f32(), pmEpisode: f32(),
  };
  // Seasonal phase: +1 in mid-January, −1 in mid-July.
  const winter = new Float64Array(hours);
  for (let t = 0; t < hours; t++) winter[t] = Math.cos((TWO_PI * ((t + 0.5) / 24 - 17)) / 365.25);

  const solarHour = new Float64Array(hours);
  const sunrise = new Float64Array(hours);
  skyAndSun(m, rng.fork('cloud'), spells, winter, lat, lon, solarHour, sunrise);
  const synoptic = temperature(m, rng.fork('temperature'), spells, winter, solarHour, sunrise);
  humidity(m, rng.fork('humidity'), spells, winter, synoptic);
  const wind = generateWind(rng.fork('wind'), {
    hours, spells, winter, startUtcMs, sunElevation: m.sunElevation, cloud: m.cloud, ta: m.ta, rh: m.rh,
    directIrradiance: m.directIrradiance, diffuseIrradiance: m.diffuseIrradiance,
    anomaly: standardisedAnomaly(synoptic),
  });
  m.wind10.set(wind.wind10);
  m.windDir.set(wind.windDir);
  m.gust10.set(addStormAndGusts(rng.fork('storm'), { wind10: m.wind10, windDir: m.windDir, spellStrength: spells.strength }));
  airMixing(m, rng.fork('air'), spells, winter, synoptic);
  return m;
}

type Mutable = { -readonly [K in keyof Meteorology]: Meteorology[K] };

/** Sun position, cloud (AR(1) in Gaussian space, clearer in spells) and irradiance. */
function skyAndSun(
  m: Mutable, rng: Random, spells: SpellSeries, winter: Float64Array, lat: number, lon: number,
  solarHour: Float64Array, sunrise: Float64Array,
): void {
  const slow = ar1(rng, m.hours, 30);
  const fast = ar1(rng, m.hours, 4);
  const sun: SunPosition = { elevation: 0, azimuth: 0, declination: 0, equationOfTime: 0 };
  const irr: Irradiance = { direct: 0, diffuse: 0 };
  for (let t = 0; t < m.hours; t++) {
    const ms = m.startUtcMs + (t + 0.5) * HOUR_MS;
    sunPosition(ms, lat, lon, sun);
    solarHour[t] = solarTimeHours(ms, lon, sun.equationOfTime);
    sunrise[t] = sunriseSolarHour(sun.declination, lat);
    // Mean cloud ~0.75 in winter, ~0.62 in summer; clipping at 0 and 1 gives the U-shaped distribution of
    // observed cover.
    const z = 0.8 * slow[t] + 0.6 * fast[t];
    const c = clamp(0.84 + 0.07 * winter[t] + 0.45 * z - 0.45 * spells.strength[t], 0, 1);
    irradiance(sun.elevation, (t + 0.5) / 24 + 1, c, irr);
    m.cloud[t] = c;
    m.sunElevation[t] = sun.elevation;
    m.sunAzimuth[t] = sun.azimuth;
    m.directIrradiance[t] = irr.direct;
    m.diffuseIrradiance[t] = irr.diffuse;
  }
}

/**
 * Air temperature = climatology + anchored synoptic anomaly + diurnal cycle. Returns the synoptic part (climatology
 * plus anomaly, no diurnal cycle) for humidity and mixing. The diurnal cycle is a two-piece cosine between the minimum
 * half an hour after sunrise and the maximum at 13:30 solar time (~15:00 CEST); its range is 3.5 K in winter and
 * 9.5 K in summer, widened on clear and narrowed on overcast days. Day-to-day weather adds to the
 * observed daily max − min.
 */
function temperature(
  m: Mutable, rng: Random, spells: SpellSeries, winter: Float64Array, solarHour: Float64Array, sunrise: Float64Array,
): Float64Array {
  const n = m.hours;
  const slow = ar1(rng, n, 72);
  const fast = ar1(rng, n, 24);
  const anomaly = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    const sigma = 2.3 + 0.4 * winter[t]; // day-to-day spread: larger in winter
    anomaly[t] = sigma * (0.92 * slow[t] + 0.39 * fast[t]) + spells.taAnomaly[t];
  }
  const monthly = movingAverage(anomaly, 31 * 24);
  const cloudDay = movingAverage(m.cloud, 24);
  const synoptic = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    synoptic[t] = climatologyTa(t) + anomaly[t] - 0.8 * monthly[t];
    const range = (6.5 - 3 * winter[t]) * clamp(1 + 1.1 * (CLOUD_PIVOT - cloudDay[t]), 0.4, 1.6);
    m.ta[t] = synoptic[t] + 0.5 * range * diurnalShape(solarHour[t], sunrise[t] + 0.5, 13.5);
  }
  return synoptic;
}

/** Zero-mean daily shape: −1 at `tMin`, +1 at `tMax` (solar hours), half-cosines in between. */
function diurnalShape(h: number, tMin: number, tMax: number): number {
  if (h >= tMin && h <= tMax) return -Math.cos((Math.PI * (h - tMin)) / (tMax - tMin));
  const cooling = 24 - (tMax - tMin);
  return Math.cos((Math.PI * ((h - tMax + 24) % 24)) / cooling);
}

/**
 * Relative humidity from a slowly varying dew point: Td = synoptic temperature − depression, so RH falls as the air
 * warms by day (inverse diurnal cycle). Depression ~2 K in winter, ~5 K in summer, larger under clear skies and in
 * heat.
 */
function humidity(m: Mutable, rng: Random, spells: SpellSeries, winter: Float64Array, synoptic: Float64Array): void {
  const noise = ar1(rng, m.hours, 24);
  const cloudDay = movingAverage(m.cloud, 24);
  for (let t = 0; t < m.hours; t++) {
    const depression = Math.max(
      0.3,
      3.5 - 1.5 * winter[t] + 3 * (CLOUD_PIVOT - cloudDay[t]) + noise[t] + 0.25 * Math.max(0, spells.taAnomaly[t]),
    );
    const es = saturationVapourPressureHpa(m.ta[t]);
    const e = saturationVapourPressureHpa(synoptic[t] - depression);
    m.rh[t] = clamp((100 * e) / es, 40, 100);
  }
}

/**
 * The day-to-day temperature weather the winter wind follows (wind-year.ts): the synoptic anomaly from climatology
 * minus its own 31-day running mean (a month's wind is then not shifted by that month being mild or cold as a whole,
 * only redistributed within it), over its 91-day running root mean square (unit variance in every season, so the wind
 * process keeps its spread), clamped to ±3.
 */
function standardisedAnomaly(synoptic: Float64Array): Float64Array {
  const raw = Float64Array.from(synoptic, (v, t) => v - climatologyTa(t));
  const monthly = movingAverage(raw, 31 * 24);
  const a = Float64Array.from(raw, (v, t) => v - monthly[t]);
  const variance = movingAverage(Float64Array.from(a, (v) => v * v), 91 * 24);
  return Float64Array.from(a, (v, t) => clamp(v / Math.sqrt(variance[t]), -3, 3));
}

/**
 * Dispersion: concentration scales as 1/u (Gaussian-plume dilution, damped to u^−0.65 for urban canyon recirculation),
 * raised in stable nights (clear sky, light wind), lowered by daytime convection (global irradiance), higher in winter
 * and in cold anomalies (inversions); normalised to mean 1, floored at 0.3. PM episodes: a slow lognormal background
 * with a winter–spring maximum plus the spells' build-up; normalised to mean 1, floored at 0.5.
 */
function airMixing(m: Mutable, rng: Random, spells: SpellSeries, winter: Float64Array, synoptic: Float64Array): void {
  const n = m.hours;
  const background = ar1(rng, n, 48);
  for (let t = 0; t < n; t++) {
    const u = m.wind10[t];
    const clear = 1 - m.cloud[t];
    const elev = m.sunElevation[t];
    const global = m.directIrradiance[t] * Math.max(0, Math.sin((elev * Math.PI) / 180)) + m.diffuseIrradiance[t];
    const stability = elev <= 0 ? 1 + 1.2 * clear * Math.exp(-u / 3) : 1 / (1 + global / 600);
    const coldAnomaly = Math.max(0, climatologyTa(t) - synoptic[t]);
    const raw = Math.max(u, 0.8) ** -0.65 * stability * (1 + 0.3 * winter[t]) * (1 + 0.05 * coldAnomaly);
    m.dispersion[t] = raw / (1 + raw / 6); // soft ceiling: a mixed layer never collapses completely
    const season = 1 + 0.15 * Math.cos((TWO_PI * ((t + 0.5) / 24 - 45)) / 365.25); // maximum mid-February
    // Inside a spell the stagnant air mass replaces the day-to-day background; its build-up sets the level.
    const s = spells.strength[t];
    m.pmEpisode[t] = season * ((1 - s) * Math.exp(0.3 * background[t] - 0.045) + s + spells.pmExcess[t]);
  }
  normaliseWithFloor(m.dispersion, 0.3);
  normaliseWithFloor(m.pmEpisode, 0.5);
}

/** Scales x to mean 1 and applies a floor; repeated so the floor's lift of the mean is itself removed. */
function normaliseWithFloor(x: Float32Array, floor: number): void {
  for (let pass = 0; pass < 3; pass++) {
    let sum = 0;
    for (let i = 0; i < x.length; i++) sum += x[i];
    const k = x.length / sum;
    for (let i = 0; i < x.length; i++) x[i] = Math.max(floor, x[i] * k);
  }
}

function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}
