import { hash32 } from '../util/random.js';
import { wholeGrid, windowCells, windowWidth, type GridWindow } from './grid-window.js';

/**
 * Spatially correlated noise of the stand-in model: the small-scale structure a street-level simulation resolves and
 * the stand-in's geometry does not (eddies shed by façade details, plumes meandering, trees, surface materials).
 *
 * Value noise over a square lattice in zone metres (so every resolution samples the same field), quintic-faded
 * between lattice points, two octaves: `length` and three times `length`. Lattice values are hashed from the seed, the
 * channel and the lattice point alone, so a field is deterministic, independent of the grid that samples it, and
 * channels are independent of each other. At resolutions coarser than `length` neighbouring cells are uncorrelated;
 * at 1 m a few metres apart they are.
 */

/** Lattice value in [−1, 1) of one channel at lattice point (i, j). */
function latticeValue(seed: number, channel: number, i: number, j: number): number {
  return hash32(seed, channel, i, j) / 2147483648 - 1;
}

/** Quintic fade: 0 at 0, 1 at 1, first and second derivatives 0 at both ends. */
function fade(t: number): number {
  return t * t * t * (t * (t * 6 - 15) + 10);
}

/** One octave at (u, v) metres with lattice spacing `spacing`. */
function octave(seed: number, channel: number, u: number, v: number, spacing: number): number {
  const x = u / spacing;
  const y = v / spacing;
  const i = Math.floor(x);
  const j = Math.floor(y);
  const fx = fade(x - i);
  const fy = fade(y - j);
  const a = latticeValue(seed, channel, i, j);
  const b = latticeValue(seed, channel, i + 1, j);
  const c = latticeValue(seed, channel, i, j + 1);
  const d = latticeValue(seed, channel, i + 1, j + 1);
  const bottom = a + (b - a) * fx;
  const top = c + (d - c) * fx;
  return bottom + (top - bottom) * fy;
}

/**
 * Gain that brings the two-octave sum to a standard deviation of about 1 (uniform lattice values have σ = 0.577; the
 * fade keeps about 0.7 of it between lattice points; the octaves weigh 0.8 and 0.6).
 */
const GAIN = 1 / (0.577 * 0.7 * Math.hypot(0.8, 0.6));

/** Noise of `channel` at zone coordinates (u, v) metres: mean 0, standard deviation ≈ 1, correlated over `length`. */
export function noiseAt(seed: number, channel: number, u: number, v: number, length: number): number {
  const fine = octave(seed, channel * 2, u, v, length);
  const coarse = octave(seed, channel * 2 + 1, u, v, length * 3);
  return GAIN * (0.8 * fine + 0.6 * coarse);
}

/** The grid a noise field is sampled on: `nx` × `ny` cells of `res` metres, row 0 northernmost, zone origin south-west. */
export interface NoiseGrid {
  readonly nx: number;
  readonly ny: number;
  readonly res: number;
}

/**
 * `channel`'s noise at every cell centre of `window` of `grid` (default: the whole grid), flat over the window's
 * cells ((row − r0) · width + col − c0), written into `out` (default: a new array; at least the window's cells);
 * a cell's value does not depend on the window.
 */
export function noiseField(
  grid: NoiseGrid, seed: number, channel: number, length: number, window: GridWindow = wholeGrid(grid),
  out = new Float32Array(windowCells(window)),
): Float32Array {
  const { ny, res } = grid;
  const width = windowWidth(window);
  for (let row = window.r0; row < window.r1; row++) {
    const v = (ny - row - 0.5) * res;
    const at = (row - window.r0) * width - window.c0;
    for (let col = window.c0; col < window.c1; col++) out[at + col] = noiseAt(seed, channel, (col + 0.5) * res, v, length);
  }
  return out;
}
