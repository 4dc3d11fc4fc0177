/**
 * Realistic int16 chunks for the codec benchmark, generated from a seed: whole-year chunks (8760 x 8 x 8) of an
 * NO2-like field (0.1 ug/m3 steps, raw 50..1500) and a wind-like field (0.01 m/s steps). Both have what the model's
 * output has and what decides compression: a shared hourly driver (seasonal and diurnal cycles, weather episodes),
 * smooth spatial structure within a block of cells, and a little per-cell-hour noise.
 */
import { createRandom, type Random } from '../src/util/random.js';

/** Shape of a benchmark chunk. */
export const BENCH_CHUNK = { hours: 8760, rows: 8, cols: 8 } as const;

/** An AR(1) series with unit variance and lag-1 correlation `phi`: weather that persists for hours to days. */
function ar1(rng: Random, n: number, phi: number): Float64Array {
  const out = new Float64Array(n);
  const innovation = Math.sqrt(1 - phi * phi);
  let v = rng.normal();
  for (let t = 0; t < n; t++) {
    v = phi * v + innovation * rng.normal();
    out[t] = v;
  }
  return out;
}

/** Smooth field over the block: a few low-frequency waves, values in about [-1, 1]. */
function smoothField(rng: Random, rows: number, cols: number): Float64Array {
  const waves = Array.from({ length: 3 }, () => ({
    kx: rng.next() * 0.6, ky: rng.next() * 0.6, phase: rng.next() * 2 * Math.PI, amp: 0.2 + rng.next() * 0.3,
  }));
  const out = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      out[r * cols + c] = waves.reduce((s, w) => s + w.amp * Math.sin(w.kx * c + w.ky * r + w.phase), 0);
    }
  }
  return out;
}

/** Hourly drivers shared by all chunks of a year: wind speed (m/s) and an NO2 background (ug/m3). */
export interface YearDrivers {
  readonly wind: Float64Array;
  readonly no2: Float64Array;
}

/** The year's drivers: Weibull-like wind with persistence, NO2 with traffic peaks, weekends, winter and episodes. */
export function yearDrivers(seed: number): YearDrivers {
  const rng = createRandom(seed);
  const n = BENCH_CHUNK.hours;
  const weather = ar1(rng.fork('weather'), n, 0.97);
  const episodes = ar1(rng.fork('episodes'), n, 0.995);
  const wind = new Float64Array(n);
  const no2 = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    const hour = t % 24;
    const day = Math.floor(t / 24);
    const winter = Math.cos((2 * Math.PI * (day - 15)) / 365);
    // Weibull (k = 2, scale 4.5 m/s): its inverse CDF applied to a logistic approximation of the weather score's CDF.
    const u = 1 / (1 + Math.exp(-1.7 * weather[t]));
    wind[t] = 4.5 * Math.sqrt(-Math.log(1 - Math.min(u, 0.999))) * (1 + 0.15 * Math.sin((2 * Math.PI * (hour - 9)) / 24));
    const traffic = 1 + 0.6 * Math.exp(-(((hour - 8) / 1.5) ** 2)) + 0.5 * Math.exp(-(((hour - 18) / 2) ** 2));
    const weekday = day % 7 >= 5 ? 0.75 : 1;
    no2[t] = 22 * traffic * weekday * (1 + 0.25 * winter) * Math.exp(0.3 * episodes[t]) / (0.6 + 0.1 * wind[t]);
  }
  return { wind, no2 };
}

/** One NO2 chunk (raw = 0.1 ug/m3): background times a street-canyon factor that falls with wind, plus noise. */
export function no2Chunk(drivers: YearDrivers, seed: number): Int16Array {
  const { hours, rows, cols } = BENCH_CHUNK;
  const rng = createRandom(seed);
  const canyon = smoothField(rng.fork('canyon'), rows, cols);
  const out = new Int16Array(hours * rows * cols);
  for (let t = 0; t < hours; t++) {
    const shelter = 1 / (1 + 0.15 * drivers.wind[t]);
    for (let k = 0; k < rows * cols; k++) {
      const value = drivers.no2[t] * (1 + 0.8 * (canyon[k] + 1) * shelter) * (1 + 0.02 * rng.normal());
      out[t * rows * cols + k] = Math.max(50, Math.min(1500, Math.round(value * 10)));
    }
  }
  return out;
}

/** One wind chunk (raw = 0.01 m/s): reference wind times a smooth amplification (corner streams, courtyards). */
export function windChunk(drivers: YearDrivers, seed: number): Int16Array {
  const { hours, rows, cols } = BENCH_CHUNK;
  const rng = createRandom(seed);
  const amplification = smoothField(rng.fork('amp'), rows, cols);
  const out = new Int16Array(hours * rows * cols);
  for (let t = 0; t < hours; t++) {
    for (let k = 0; k < rows * cols; k++) {
      const value = drivers.wind[t] * (0.9 + 0.5 * amplification[k]) * (1 + 0.04 * rng.normal());
      out[t * rows * cols + k] = Math.max(0, Math.min(6000, Math.round(value * 100)));
    }
  }
  return out;
}

/** The benchmark's chunk set: `count / 2` NO2 chunks and `count / 2` wind chunks, all from `seed`. */
export function benchChunks(seed: number, count: number): Int16Array[] {
  const drivers = yearDrivers(seed);
  return Array.from({ length: count }, (_, i) =>
    i % 2 === 0 ? no2Chunk(drivers, seed * 1000 + i) : windChunk(drivers, seed * 1000 + i));
}
