import { evaluateReduced, reduceUtciPolynomial } from './utci-coefficients.js';

/**
 * Universal Thermal Climate Index by the operational approximation of Bröde et al. 2012 ("UTCI_approx a0.002",
 * Int J Biometeorol 56:481–494), plus a per-hour lookup table for bulk use.
 *
 * Inputs outside the polynomial's fitted domain are clamped to it (Bröde et al. 2012): Ta −50…50 °C,
 * Tmrt − Ta −30…70 K, va 0.5…17 m/s at 10 m, Pa ≤ 5 kPa. The polynomial diverges quickly outside that box, so clamping
 * keeps a generator's rare extreme cell-hours finite and monotone instead of returning NaN as some libraries do.
 */

/** Valid input ranges of the approximation (Bröde et al. 2012); inputs are clamped to them. */
const UTCI_LIMITS = Object.freeze({
  taMin: -50, taMax: 50,
  dTmrtMin: -30, dTmrtMax: 70,
  vaMin: 0.5, vaMax: 17,
  paMaxKpa: 5,
});

/** Hardy 1998 ITS-90 coefficients g0..g6 for saturation vapour pressure over water, and g7 (the ln T term). */
const HARDY_G = [-2836.5744, -6028.076559, 19.54263612, -0.02737830188, 1.6261698e-5, 7.0229056e-10, -1.8680009e-13];
const HARDY_G7 = 2.7150305;

/**
 * Saturation vapour pressure over water, hPa, by the ITS-90 formulation of Hardy 1998 (the one UTCI_approx uses):
 * ln es[Pa] = Σ g_i T^(i−2) + g7 ln T, with T in kelvin. Uses ln(T) as the reference Fortran does (pythermalcomfort
 * uses ln(T + 1), which raises es by ~0.9 %).
 */
export function saturationVapourPressureHpa(taC: number): number {
  const tk = taC + 273.15;
  let lnEs = HARDY_G7 * Math.log(tk);
  let pow = 1 / (tk * tk);
  for (let i = 0; i < HARDY_G.length; i++) {
    lnEs += HARDY_G[i] * pow;
    pow *= tk;
  }
  return Math.exp(lnEs) * 0.01;
}

/** Water-vapour pressure, kPa, from air temperature (°C) and relative humidity (%, clamped to 0…100). */
function vapourPressureKpa(taC: number, rh: number): number {
  return (saturationVapourPressureHpa(taC) * clamp(rh, 0, 100)) / 1000;
}

function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/** Clamped polynomial arguments for one hour: the Ta used by the polynomial and Pa (kPa). */
function hourArgs(ta: number, rh: number): { ta: number; pa: number } {
  const t = clamp(ta, UTCI_LIMITS.taMin, UTCI_LIMITS.taMax);
  return { ta: t, pa: Math.min(vapourPressureKpa(t, rh), UTCI_LIMITS.paMaxKpa) };
}

/**
 * UTCI (°C) from air temperature ta (°C), mean radiant temperature tmrt (°C), wind speed va10 (m/s at 10 m) and
 * relative humidity rh (%). Tmrt − Ta is taken from the inputs as given, then every argument is clamped (UTCI_LIMITS);
 * vapour pressure is computed at the clamped Ta. A NaN input gives NaN.
 */
export function utci(ta: number, tmrt: number, va10: number, rh: number): number {
  const { ta: t, pa } = hourArgs(ta, rh);
  const d = clamp(tmrt - ta, UTCI_LIMITS.dTmrtMin, UTCI_LIMITS.dTmrtMax);
  const va = clamp(va10, UTCI_LIMITS.vaMin, UTCI_LIMITS.vaMax);
  return evaluateReduced(reduceUtciPolynomial(t, pa), va, d);
}

/**
 * UTCI at one hour's air temperature (°C) and relative humidity (%) as a function of the 10 m wind (m/s) and Tmrt − Ta
 * (K): the polynomial reduced once for the hour (28 terms left), arguments clamped as in `utci`.
 */
export function utciOfHour(ta: number, rh: number): (va10: number, dTmrt: number) => number {
  const { ta: t, pa } = hourArgs(ta, rh);
  const coeffs = reduceUtciPolynomial(t, pa);
  return (va10, dTmrt) =>
    evaluateReduced(
      coeffs,
      clamp(va10, UTCI_LIMITS.vaMin, UTCI_LIMITS.vaMax),
      clamp(dTmrt, UTCI_LIMITS.dTmrtMin, UTCI_LIMITS.dTmrtMax),
    );
}

/** Default 10 m wind axis of a UTCI table: 0.5…17 m/s every 0.5 m/s (34 values). */
export const UTCI_VA_AXIS: Float64Array = Float64Array.from({ length: 34 }, (_, i) => 0.5 + 0.5 * i);

/** Default Tmrt − Ta axis of a UTCI table: −30…70 K every 5 K (21 values). */
export const UTCI_DTMRT_AXIS: Float64Array = Float64Array.from({ length: 21 }, (_, i) => -30 + 5 * i);

/** UTCI for one hour (fixed Ta and RH) as a function of the two cell-dependent inputs. */
export interface UtciTable {
  /** The tabulated values: `values[i * dTmrtAxis.length + j]` at (vaAxis[i], dTmrtAxis[j]). */
  readonly values: Float64Array;
  /** Bilinear interpolation in the table; arguments are clamped to the axes' ends (and so to UTCI_LIMITS). */
  lookup(va10: number, dTmrt: number): number;
  /** The polynomial itself for this hour (28 terms), for checks and for callers that want no interpolation. */
  exact(va10: number, dTmrt: number): number;
}

/**
 * Tabulates UTCI for one hour over `vaAxis` × `dTmrtAxis` (strictly increasing; values outside UTCI_LIMITS are
 * clamped when evaluated). Measured against the polynomial on a dense grid (steps 0.07 m/s × 0.17 K) with the default
 * axes, the bilinear error is ≤ 0.04 °C for Ta −15…35 °C, RH 40…100 %, va 0.5…12 m/s, Tmrt − Ta −10…45 K, and
 * ≤ 0.05 °C over the whole valid domain. It peaks at low wind (0.5–1 m/s) under large radiant loads, where UTCI bends
 * most; a 1 m/s wind step would raise it to 0.14 °C.
 */
export function createUtciTable(ta: number, rh: number, vaAxis: Float64Array, dTmrtAxis: Float64Array): UtciTable {
  const exact = utciOfHour(ta, rh);
  const nv = vaAxis.length;
  const nd = dTmrtAxis.length;
  const values = new Float64Array(nv * nd);
  for (let i = 0; i < nv; i++) for (let j = 0; j < nd; j++) values[i * nd + j] = exact(vaAxis[i], dTmrtAxis[j]);
  const va = createAxis(vaAxis);
  const dt = createAxis(dTmrtAxis);
  const frac = new Float64Array(2);
  return {
    values,
    exact,
    lookup(va10: number, dTmrt: number): number {
      const i = locate(va, va10, frac, 0);
      const j = locate(dt, dTmrt, frac, 1);
      const k = i * nd + j;
      const fj = frac[1];
      const a = values[k] + (values[k + 1] - values[k]) * fj;
      const b = values[k + nd] + (values[k + nd + 1] - values[k + nd]) * fj;
      return a + (b - a) * frac[0];
    },
  };
}

/** An increasing axis with a coarse uniform bucket table giving, per bucket, the first interval to search from. */
interface Axis {
  readonly values: Float64Array;
  readonly lo: number;
  readonly hi: number;
  readonly scale: number;
  readonly start: Int32Array;
}

const AXIS_BUCKETS = 256;

function createAxis(values: Float64Array): Axis {
  const n = values.length;
  if (n < 2) throw new RangeError('UTCI table axes need at least two values');
  for (let i = 1; i < n; i++) {
    if (!(values[i] > values[i - 1])) throw new RangeError('UTCI table axes must be strictly increasing');
  }
  const lo = values[0];
  const hi = values[n - 1];
  const scale = AXIS_BUCKETS / (hi - lo);
  const start = new Int32Array(AXIS_BUCKETS + 1);
  for (let b = 0, i = 0; b <= AXIS_BUCKETS; b++) {
    while (i < n - 2 && values[i + 1] <= lo + b / scale) i++;
    start[b] = i;
  }
  return { values, lo, hi, scale, start };
}

/**
 * Index i of the interval [values[i], values[i + 1]] holding x, clamped to the axis ends; writes x's fractional
 * position in it to out[slot] (NaN for a NaN x, so the lookup returns NaN). Constant time: one bucket read, rarely a
 * step or two.
 */
function locate(axis: Axis, x: number, out: Float64Array, slot: number): number {
  const v = axis.values;
  const last = v.length - 2;
  if (x <= axis.lo) {
    out[slot] = 0;
    return 0;
  }
  if (x >= axis.hi) {
    out[slot] = 1;
    return last;
  }
  if (Number.isNaN(x)) {
    out[slot] = Number.NaN;
    return 0;
  }
  let i = axis.start[Math.floor((x - axis.lo) * axis.scale)];
  while (i < last && v[i + 1] <= x) i++;
  out[slot] = (x - v[i]) / (v[i + 1] - v[i]);
  return i;
}
