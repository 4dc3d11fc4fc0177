/**
 * Deterministic perturbation of replayed values, so the live feed is not a bare copy of the reference year and a
 * forecast grows less certain with lead time.
 *
 * For each field group, target hour and lead time there is a smooth random field z(x, y) ~ N(0, 1): standard normal
 * values on a `LATTICE_M` lattice in grid metres, seeded by (seed, dataset, group, target hour, lead, node),
 * interpolated bilinearly and renormalised to unit variance. Smooth in space, so a point record and the map slice
 * cell under it agree and neighbouring cells do not flicker; independent between hours and leads, so the forecast for
 * one hour changes as it is re-issued. Concentrations and wind speeds are scaled by a mean-preserving log-normal factor
 * exp(σz − σ²/2); UTCI is shifted by σz °C. Fields of one group share z (PM10 stays ≥ PM2.5, gusts ≥ mean wind).
 */
import type { HourlyField } from '../store/dataset-types.js';
import { hash32 } from '../util/random.js';

/** Spacing of the noise lattice, metres: perturbations vary over a few street blocks. */
const LATTICE_M = 500;

/** Fields perturbed together. */
export type PerturbGroup = 'no2' | 'pm' | 'wind' | 'utci';

/** The group of each field. */
export const FIELD_GROUP: Readonly<Record<HourlyField, PerturbGroup>> = Object.freeze({
  no2: 'no2', pm25: 'pm', pm10: 'pm', ucomfort: 'wind', ugust: 'wind', utci: 'utci',
});

const GROUP_INDEX: Readonly<Record<PerturbGroup, number>> = { no2: 1, pm: 2, wind: 3, utci: 4 };

/** Spread at lead 0 and its growth to +48 h (σ = base + growth·√(lead/48)); log-space for all groups but UTCI (°C). */
const SPREAD: Readonly<Record<PerturbGroup, { base: number; growth: number }>> = {
  no2: { base: 0.06, growth: 0.3 },
  pm: { base: 0.05, growth: 0.25 },
  wind: { base: 0.04, growth: 0.22 },
  utci: { base: 0.3, growth: 2.7 },
};

/** σ of a group at a lead time (hours; negative leads count as 0). */
export function spread(group: PerturbGroup, leadH: number): number {
  const { base, growth } = SPREAD[group];
  return base + growth * Math.sqrt(Math.max(0, leadH) / 48);
}

/** Applies a unit-normal draw `z` to a physical value of `field` at lead `leadH`; NaN stays NaN, results are ≥ 0 except UTCI. */
export function perturbValue(field: HourlyField, value: number, z: number, leadH: number): number {
  const group = FIELD_GROUP[field];
  const sigma = spread(group, leadH);
  if (group === 'utci') return value + sigma * z;
  return Math.max(0, value * Math.exp(sigma * z - (sigma * sigma) / 2));
}

/** A standard normal draw from a node hash (Box–Muller over two derived uniforms in (0, 1]). */
function nodeNormal(h: number): number {
  const u = (hash32(h, 1) + 1) / 4294967297;
  const v = hash32(h, 2) / 4294967296;
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** What a noise field is seeded by. */
export interface NoiseKey {
  readonly seed: number;
  /** Hash of the dataset id (`datasetHash`). */
  readonly dataset: number;
  readonly group: PerturbGroup;
  /** Target hour, whole hours since the epoch. */
  readonly epochHour: number;
  readonly leadH: number;
}

/** A stable 32-bit hash of a dataset id. */
export function datasetHash(id: string): number {
  return hash32(...Array.from(id, (ch) => ch.charCodeAt(0)));
}

/**
 * Writes z(xs[i], ys[i]) into `out` for every point (grid metres). Only the lattice nodes around the points' bounding
 * box are drawn, once each, so a whole city slice costs a few dozen hashes plus one interpolation per point.
 */
export function noiseAt(key: NoiseKey, xs: Float64Array, ys: Float64Array, out: Float32Array): Float32Array {
  const n = xs.length;
  if (n === 0) return out;
  let xmin = Infinity;
  let ymin = Infinity;
  let xmax = -Infinity;
  let ymax = -Infinity;
  for (let i = 0; i < n; i++) {
    xmin = Math.min(xmin, xs[i]);
    xmax = Math.max(xmax, xs[i]);
    ymin = Math.min(ymin, ys[i]);
    ymax = Math.max(ymax, ys[i]);
  }
  const i0 = Math.floor(xmin / LATTICE_M);
  const j0 = Math.floor(ymin / LATTICE_M);
  const ni = Math.floor(xmax / LATTICE_M) - i0 + 2;
  const nj = Math.floor(ymax / LATTICE_M) - j0 + 2;
  const base = hash32(key.seed, key.dataset, GROUP_INDEX[key.group], key.epochHour, key.leadH);
  const nodes = new Float64Array(ni * nj);
  for (let j = 0; j < nj; j++) {
    for (let i = 0; i < ni; i++) nodes[j * ni + i] = nodeNormal(hash32(base, i0 + i, j0 + j));
  }
  for (let p = 0; p < n; p++) {
    const gx = xs[p] / LATTICE_M - i0;
    const gy = ys[p] / LATTICE_M - j0;
    const i = Math.min(ni - 2, Math.floor(gx));
    const j = Math.min(nj - 2, Math.floor(gy));
    const fx = gx - i;
    const fy = gy - j;
    const w00 = (1 - fx) * (1 - fy);
    const w10 = fx * (1 - fy);
    const w01 = (1 - fx) * fy;
    const w11 = fx * fy;
    const k = j * ni + i;
    const sum = w00 * nodes[k] + w10 * nodes[k + 1] + w01 * nodes[k + ni] + w11 * nodes[k + ni + 1];
    out[p] = sum / Math.sqrt(w00 * w00 + w10 * w10 + w01 * w01 + w11 * w11);
  }
  return out;
}
