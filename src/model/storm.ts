import type { Random } from '../util/random.js';

/**
 * The reference year's storm and the open-site gusts. Belgian storms are Atlantic depressions between October and
 * March whose strongest gusts come with the cold front: at Uccle's 10 m mast storm Dennis (16 February 2020) gusted to
 * 108 km/h (30 m/s) behind a very active cold front, Ciara a week earlier and most notable storms to about 100 km/h
 * (docs/datasets.md). The storm deepens the windiest hour of the storm season outside the calm spells — a mild, windy
 * hour, as the winter coupling of wind-year.ts makes them — into a front: the hourly mean wind rises to the storm's peak
 * over a few hours, veers from south-west to west-north-west as the front passes, and the gusts of the hours around
 * the front are stronger than the mean wind alone would give (convective gusts of the front line, which a constant gust
 * factor does not describe; Wieringa 1973).
 *
 * Open-site gust of an hour = mean × (1 + g · TI · gustiness): peak factor g = 3 (gust-equivalent mean of NEN 8100),
 * turbulence intensity 0.22 of a 10 m mast over open terrain with scattered obstacles (z0 ≈ 0.1 m, TI ≈ 1 / ln(10 / z0)),
 * gustiness 1 outside the front. That is a gust factor of 1.66 on ordinary hours, as measured for 3 s gusts on the
 * hourly mean over roughly open terrain (Wieringa 1973; Ashcroft 1994), and about 2.2 at the front.
 */

/** Peak factor g of gust = mean + g·σ. */
const GUST_PEAK_FACTOR = 3;
/** Turbulence intensity σ/U of the open-site 10 m wind. */
export const OPEN_SITE_TI = 0.22;
/** Range of the storm's peak hourly mean wind at 10 m, m/s (drawn per year; a windier hour is kept as it is). */
const STORM_PEAK_MS: readonly [number, number] = [13, 14.5];
/** Half-widths (Gaussian σ) of the storm's rise before its front and of its fall behind it, hours. */
const RISE_HOURS = 2;
const FALL_HOURS = 1.5;
/**
 * Ordinary weather's hourly means are soft-limited above this speed, m/s, keeping `ORDINARY_EXCESS_KEPT` of the
 * excess: the Gaussian–Weibull process of wind-year.ts gives a year hours on end above 14 m/s, an hourly mean Uccle's
 * mast, in a park sheltered by trees and the city, sees only in storms.
 */
const ORDINARY_KNEE_MS = 10;
const ORDINARY_EXCESS_KEPT = 0.4;
/** Extra gustiness at the front (1 + this at the front hour), fading within about two hours. */
const FRONT_GUSTINESS = 0.8;
const FRONT_HOURS = 1;
/** Directions the storm blows from before and behind its front, degrees. */
const PRE_FRONT_FROM = 220;
const POST_FRONT_FROM = 285;
/** Storm season: from mid-October to mid-March (day of year), wrapping over the new year. */
const SEASON_START_DAY = 288;
const SEASON_END_DAY = 74;
/** Hours within a spell of at least this strength are anticyclonic and hold no storm. */
const SPELL_CALM = 0.1;

/** What the storm reads: the year's wind (adjusted in place) and the spells it stays out of. */
export interface StormInputs {
  readonly wind10: Float32Array;
  readonly windDir: Float32Array;
  /** Anticyclonic spell strength per hour, 0…1. */
  readonly spellStrength: Float64Array;
}

/**
 * Adds the storm to `inputs` (mean wind and direction, in place) and returns the open-site gust of every hour, m/s.
 * Deterministic for the stream; draws one number.
 */
export function addStormAndGusts(rng: Random, inputs: StormInputs): Float32Array {
  const { wind10, windDir, spellStrength } = inputs;
  const n = wind10.length;
  for (let t = 0; t < n; t++) {
    if (wind10[t] > ORDINARY_KNEE_MS) wind10[t] = ORDINARY_KNEE_MS + ORDINARY_EXCESS_KEPT * (wind10[t] - ORDINARY_KNEE_MS);
  }
  const peakDraw = STORM_PEAK_MS[0] + (STORM_PEAK_MS[1] - STORM_PEAK_MS[0]) * rng.next();
  let front = -1;
  for (let t = 0; t < n; t++) {
    const day = t / 24;
    const inSeason = day >= SEASON_START_DAY || day < SEASON_END_DAY;
    if (inSeason && spellStrength[t] < SPELL_CALM && (front < 0 || wind10[t] > wind10[front])) front = t;
  }
  const gustiness = new Float64Array(n).fill(1);
  if (front >= 0) {
    const boost = Math.max(0, peakDraw / wind10[front] - 1);
    const reach = Math.ceil(4 * Math.max(RISE_HOURS, FALL_HOURS));
    for (let t = Math.max(0, front - reach); t < Math.min(n, front + reach + 1); t++) {
      const x = (t - front) / (t < front ? RISE_HOURS : FALL_HOURS);
      const bell = Math.exp(-0.5 * x * x);
      wind10[t] *= 1 + boost * bell;
      // The storm's own flow takes over near its peak; the front veers it within the hour of passage.
      const stormFrom = t < front ? PRE_FRONT_FROM : POST_FRONT_FROM;
      const turn = ((stormFrom - windDir[t] + 540) % 360) - 180;
      windDir[t] = (windDir[t] + bell * turn + 360) % 360;
      gustiness[t] += FRONT_GUSTINESS * Math.exp(-0.5 * ((t - front) / FRONT_HOURS) ** 2);
    }
  }
  return Float32Array.from(wind10, (u, t) => u * (1 + GUST_PEAK_FACTOR * OPEN_SITE_TI * gustiness[t]));
}
