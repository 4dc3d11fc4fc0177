import type { Random } from '../util/random.js';

/**
 * Stochastic building blocks of the reference weather year: persistent Gaussian processes, distribution transforms and
 * "spells" — multi-day anticyclonic episodes (winter cold spells, spring and autumn stagnant highs, summer heat waves)
 * that drive temperature extremes, clear skies, light easterly winds and regional particulate episodes together, as
 * blocking highs do over Belgium.
 */

/** Standard normal CDF, |error| < 1.5e-7 (Abramowitz & Stegun 1964, 7.1.26 applied to erf). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-z * z);
  return x >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

/** Quantile of a Weibull distribution with shape k and scale lambda at probability u in [0, 1). */
export function weibullQuantile(u: number, k: number, lambda: number): number {
  return lambda * (-Math.log(1 - Math.min(u, 1 - 1e-12))) ** (1 / k);
}

/**
 * Hourly AR(1) series with unit stationary variance and e-folding memory `tauHours`:
 * x[t] = φ x[t−1] + √(1 − φ²) ε[t], φ = exp(−1/τ); x[0] is drawn from the stationary law, so no spin-up is needed.
 */
export function ar1(rng: Random, n: number, tauHours: number): Float64Array {
  const phi = Math.exp(-1 / tauHours);
  const innovation = Math.sqrt(1 - phi * phi);
  const x = new Float64Array(n);
  let v = rng.normal();
  for (let t = 0; t < n; t++) {
    if (t > 0) v = phi * v + innovation * rng.normal();
    x[t] = v;
  }
  return x;
}

/** Centred moving average over `window` samples; near the ends it averages the samples that exist. */
export function movingAverage(x: ArrayLike<number>, window: number): Float64Array {
  const n = x.length;
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + x[i];
  const half = Math.floor(window / 2);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const lo = Math.max(0, i - half);
    const hi = Math.min(n, i + half + 1);
    out[i] = (prefix[hi] - prefix[lo]) / (hi - lo);
  }
  return out;
}

/** One kind of spell: when it may start (day-of-year window), how often, how long, and how strong. */
interface SpellKind {
  readonly window: readonly [number, number];
  readonly count: readonly [number, number];
  readonly days: readonly [number, number];
  /** Air-temperature anomaly at full strength, K (before the reference-year anchoring in meteorology.ts). */
  readonly taK: readonly [number, number];
  /** Regional PM multiplier reached at the end of the build-up. */
  readonly pmPeak: readonly [number, number];
  /** Direction the wind blows from around the high, degrees. */
  readonly windFrom: number;
}

/**
 * Spell climatology. The kinds and seasons follow what Belgian records describe (IRM/KMI climate summaries,
 * IRCEL-CELINE particulate-episode reports); the counts, durations and magnitudes are this model's choices, tuned so
 * that a year reaches the extremes docs/datasets.md describes:
 * one or two winter cold spells with stagnant air and PM episodes under continental east-north-easterlies, an
 * early-December one in some years, spring ammonium-nitrate PM episodes under north-easterly highs (March–April),
 * one to three summer heat waves with east to south-east flow, one autumn high.
 */
const SPELL_KINDS: readonly SpellKind[] = [
  { window: [5, 50], count: [1, 2], days: [5, 9], taK: [-8, -6], pmPeak: [2.8, 3.6], windFrom: 70 },
  { window: [335, 358], count: [0, 1], days: [4, 7], taK: [-6, -4], pmPeak: [2.5, 3.2], windFrom: 70 },
  { window: [60, 115], count: [2, 2], days: [3, 6], taK: [1, 3], pmPeak: [2.5, 3.2], windFrom: 45 },
  { window: [166, 236], count: [1, 3], days: [3, 6], taK: [7, 9.5], pmPeak: [1.3, 1.6], windFrom: 115 },
  { window: [283, 329], count: [1, 1], days: [3, 6], taK: [-3, -1], pmPeak: [1.8, 2.5], windFrom: 140 },
];

/** Hours of the smooth onset and decay of a spell. */
const RAMP_HOURS = 18;
/** Minimum calm days between two spells. */
const GAP_DAYS = 7;

/** Hourly spell fields of a year. */
export interface SpellSeries {
  /** Anticyclonic strength 0…1 (1 = fully inside a spell). */
  readonly strength: Float64Array;
  /** Air-temperature anomaly, K. */
  readonly taAnomaly: Float64Array;
  /** Extra regional PM multiplier (0 outside spells), building up through each spell and cut at its end. */
  readonly pmExcess: Float64Array;
  /** Wind direction (from, degrees) of the spell in force, NaN outside spells. */
  readonly windFrom: Float64Array;
}

function uniform(rng: Random, range: readonly [number, number]): number {
  return range[0] + (range[1] - range[0]) * rng.next();
}

/** Places the year's spells (deterministic for `rng`) and renders them hour by hour. */
export function generateSpells(rng: Random, hours: number): SpellSeries {
  const strength = new Float64Array(hours);
  const taAnomaly = new Float64Array(hours);
  const pmExcess = new Float64Array(hours);
  const windFrom = new Float64Array(hours).fill(Number.NaN);
  const taken: Array<[number, number]> = [];
  for (const kind of SPELL_KINDS) {
    const count = kind.count[0] + rng.int(kind.count[1] - kind.count[0] + 1);
    for (let c = 0; c < count; c++) {
      // Rejection sampling of a start that keeps GAP_DAYS from every placed spell; gives up after a few tries.
      for (let attempt = 0; attempt < 20; attempt++) {
        const len = Math.round(uniform(rng, kind.days) * 24);
        const start = Math.round(uniform(rng, kind.window) * 24);
        const end = Math.min(hours, start + len);
        const gap = GAP_DAYS * 24;
        if (start >= hours || taken.some(([a, b]) => start < b + gap && end > a - gap)) continue;
        taken.push([start, end]);
        const ta = uniform(rng, kind.taK);
        const pm = uniform(rng, kind.pmPeak) - 1;
        const buildUp = 0.6 * (end - start);
        for (let t = Math.max(0, start - RAMP_HOURS); t < Math.min(hours, end + RAMP_HOURS); t++) {
          const s = rampShape(t, start, end);
          if (s > strength[t]) {
            strength[t] = s;
            windFrom[t] = kind.windFrom;
          }
          taAnomaly[t] += ta * s;
          // Particulates accumulate under the stagnant high and are swept out by the front that ends it.
          const accumulation = t < start ? 0 : Math.min(1, (t - start) / buildUp) ** 0.7;
          pmExcess[t] += pm * accumulation * (t < end ? 1 : s);
        }
        break;
      }
    }
  }
  return { strength, taAnomaly, pmExcess, windFrom };
}

/** 0 outside [start − ramp, end + ramp], 1 inside [start, end], cosine-smooth in between. */
function rampShape(t: number, start: number, end: number): number {
  if (t >= start && t < end) return 1;
  const d = t < start ? start - t : t - end + 1;
  if (d >= RAMP_HOURS) return 0;
  return 0.5 * (1 + Math.cos((Math.PI * d) / RAMP_HOURS));
}
