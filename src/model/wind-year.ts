import type { Random } from '../util/random.js';
import { ar1, normalCdf, weibullQuantile, type SpellSeries } from './synoptic.js';
import { monthlyChillMultipliers, type ChillInputs } from './wind-chill.js';

/**
 * The 10 m wind of the reference weather year. Speed: a persistent Gaussian process mapped through a Weibull quantile,
 * windier in winter and by day, calmer in spells, scaled to an annual mean of MEAN_WIND. Direction: a south-west
 * regime, a north-east regime likeliest in spring, or a spell's own flow.
 *
 * Winter coupling. In Belgium the coldest winter hours come under calm anticyclones and the strong winds with mild
 * Atlantic air (IRM/KMI climate summaries); an uncoupled process instead gives the odd −7 °C hour a 13 m/s gale, and
 * with it UTCI below −45 °C at windy street corners, far colder than Belgian winters feel. So from autumn to spring
 * the process leans on the day-to-day temperature anomaly, and each month's wind is then scaled so that its mean wind
 * chill stays that of the uncoupled year (wind-chill.ts): the coupling reorders winter weather (mild and windy, cold
 * and calm) without making a month as a whole feel milder. Summer hours are untouched. Deterministic for the stream.
 */

/** Annual mean 10 m wind the year is calibrated to, m/s, and its Weibull shape outside winter (Rayleigh-like). */
const MEAN_WIND = 4.0;
const WEIBULL_K = 2;

/**
 * Weight of the standardised temperature anomaly in the wind process at the heart of winter (seasonal phase 1); it
 * fades with the phase to 0 at the equinoxes and stays 0 in summer (heat waves are calm through their spells). The
 * process keeps unit variance: weather × √(1 − ρ²) + anomaly × ρ.
 */
const WINTER_WIND_COUPLING = 0.85;

/**
 * Increase of the coupled wind's Weibull shape at the heart of winter (k = 2.5 there, fading with the phase): a
 * modelling choice for steadier winter flow with fewer calm hours and a shorter gale tail, which the monthly chill
 * calibration (wind-chill.ts) would otherwise stretch when it scales a month up.
 */
const WINTER_SHAPE_INCREASE = 0.5;

/** What the wind depends on, hour by hour (the wind-chill inputs included). */
export interface WindInputs extends ChillInputs {
  readonly spells: SpellSeries;
  /** Seasonal phase: +1 in mid-January, −1 in mid-July. */
  readonly winter: Float64Array;
  /** Standardised synoptic temperature anomaly (clamped to ±3), the weather the winter wind follows. */
  readonly anomaly: Float64Array;
}

/** The wind of the year: speed at 10 m (m/s) and the direction it blows from (degrees). */
export interface WindYear {
  readonly wind10: Float32Array;
  readonly windDir: Float32Array;
}

/** Generates the wind year; the same inputs and stream always give identical arrays. */
export function generateWind(rng: Random, inputs: WindInputs): WindYear {
  const { hours: n, spells, winter } = inputs;
  const slow = ar1(rng, n, 36);
  const fast = ar1(rng, n, 5);
  const swDev = ar1(rng, n, 18);
  const neDev = ar1(rng, n, 18);
  const weather = new Float64Array(n);
  const offset = new Float64Array(n);
  const scale = new Float64Array(n);
  const windDir = new Float32Array(n);
  let northEast = false;
  const leave = 1 / 60; // regimes last ~2.5 days on average
  let dir = 225;
  for (let t = 0; t < n; t++) {
    const spring = Math.exp(-((((t + 0.5) / 24 - 110) / 35) ** 2)); // peaks mid-April
    const pNorthEast = 0.1 + 0.3 * spring;
    if (rng.next() < (northEast ? leave : (leave * pNorthEast) / (1 - pNorthEast))) northEast = !northEast;
    const inSpell = spells.strength[t] > 0.5;
    weather[t] = 0.85 * slow[t] + 0.527 * fast[t];
    offset[t] = -0.6 * spells.strength[t] - (northEast && !inSpell ? 0.25 : 0);
    const day = Math.max(0, Math.sin((inputs.sunElevation[t] * Math.PI) / 180));
    scale[t] = (1 + 0.22 * winter[t]) * (0.9 + 0.3 * day * (1 - 0.5 * inputs.cloud[t]));
    const target = inSpell ? spells.windFrom[t] + 30 * neDev[t] : northEast ? 50 + 30 * neDev[t] : 225 + 40 * swDev[t];
    const turn = ((target - dir + 540) % 360) - 180;
    dir = (dir + 0.3 * turn + 360) % 360;
    windDir[t] = dir;
  }

  const season = Float64Array.from(winter, (w) => Math.max(0, w));
  const uncoupledRaw = rawSpeeds(Float64Array.from(weather, (w, t) => w + offset[t]), scale, new Float64Array(n).fill(WEIBULL_K));
  // One scaling for the whole year, the uncoupled year's: hours outside the coupled season (summer) keep their speeds.
  const k = (MEAN_WIND * n) / uncoupledRaw.reduce((sum, u) => sum + u, 0);
  const coupledRaw = rawSpeeds(Float64Array.from(weather, (w, t) => {
    const rho = WINTER_WIND_COUPLING * season[t];
    return Math.sqrt(1 - rho * rho) * w + rho * inputs.anomaly[t] + offset[t];
  }), scale, Float64Array.from(season, (s) => WEIBULL_K + WINTER_SHAPE_INCREASE * s));
  const uncoupled = Float64Array.from(uncoupledRaw, (u) => u * k);
  const coupled = Float64Array.from(coupledRaw, (u) => u * k);
  const multipliers = monthlyChillMultipliers(inputs, season, uncoupled, coupled);
  return { wind10: Float32Array.from(coupled, (u, t) => u * multipliers[t]), windDir };
}

/** Speeds from the Gaussian process before scaling: the Weibull quantile of each hour. */
function rawSpeeds(z: Float64Array, scale: Float64Array, shape: Float64Array): Float64Array {
  return Float64Array.from(z, (zt, t) => weibullQuantile(normalCdf(zt), shape[t], scale[t]));
}
