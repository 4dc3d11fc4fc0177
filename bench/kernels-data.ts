/**
 * Realistic year chunks for the kernel benchmark: all six hourly fields for 64 cells × 8760 hours, raw int16 under the
 * datasets' CF encodings. Shared hourly weather (seasonal and diurnal cycles, persistent anomalies, Weibull-like wind)
 * drives every cell; cells differ by a street-canyon factor (NO2), a wind exposure factor (sheltered courtyards to
 * corner streams) and sun or shade (UTCI). Values land in every BelAQI class and every wind and thermal band.
 */
import { FIELD_ENCODINGS, HOURLY_FIELDS, type HourlyField } from '../src/store/dataset-types.js';
import { createRandom, type Random } from '../src/util/random.js';

/** Shape of a benchmark chunk. */
export const KERNEL_CHUNK = { hours: 8760, cells: 64 } as const;

/** One chunk: a hours × cells int16 array per field, hour-major. */
export type FieldChunks = Readonly<Record<HourlyField, Int16Array>>;

/** An AR(1) series with unit variance and lag-1 correlation `phi`. */
function ar1(rng: Random, n: number, phi: number): Float64Array {
  const out = new Float64Array(n);
  const innovation = Math.sqrt(1 - phi * phi);
  let v = rng.normal();
  for (let t = 0; t < n; t++) out[t] = v = phi * v + innovation * rng.normal();
  return out;
}

/** Raw int16 of a physical value under a field's encoding. */
function pack(field: HourlyField, value: number): number {
  const e = FIELD_ENCODINGS[field];
  return Math.max(-32767, Math.min(32767, Math.round((value - e.add_offset) / e.scale_factor)));
}

/** `count` chunks from one year of weather; each chunk has its own cells. */
export function kernelChunks(count: number, seed: number): FieldChunks[] {
  const { hours, cells } = KERNEL_CHUNK;
  const rng = createRandom(seed);
  const weather = ar1(rng.fork('weather'), hours, 0.97);
  const episodes = ar1(rng.fork('episodes'), hours, 0.995);
  const warmth = ar1(rng.fork('warmth'), hours, 0.99);
  const chunks: FieldChunks[] = [];
  for (let k = 0; k < count; k++) {
    const cellRng = rng.fork(`cells-${k}`);
    const canyon = Array.from({ length: cells }, () => 1 + cellRng.next());
    const exposure = Array.from({ length: cells }, () => 0.3 + 1.1 * cellRng.next());
    const shade = Array.from({ length: cells }, () => cellRng.next());
    const noise = cellRng.fork('noise');
    const out = Object.fromEntries(HOURLY_FIELDS.map((f) => [f, new Int16Array(hours * cells)])) as Record<HourlyField, Int16Array>;
    for (let t = 0; t < hours; t++) {
      const hour = t % 24;
      const day = Math.floor(t / 24);
      const winter = Math.cos((2 * Math.PI * (day - 15)) / 365);
      const u = 1 / (1 + Math.exp(-1.7 * weather[t]));
      const wind = 4.5 * Math.sqrt(-Math.log(1 - Math.min(u, 0.999))) * (1 + 0.15 * Math.sin((2 * Math.PI * (hour - 9)) / 24));
      const traffic = 1 + 0.6 * Math.exp(-(((hour - 8) / 1.5) ** 2)) + 0.5 * Math.exp(-(((hour - 18) / 2) ** 2));
      const weekday = day % 7 >= 5 ? 0.75 : 1;
      const no2 = (22 * traffic * weekday * (1 + 0.25 * winter) * Math.exp(0.3 * episodes[t])) / (0.6 + 0.1 * wind);
      const pm25 = (7 + 5 * Math.max(0, winter)) * Math.exp(0.5 * episodes[t]);
      const air = 10.5 - 7.5 * winter + 4 * Math.sin((2 * Math.PI * (hour - 9)) / 24) + 3 * warmth[t];
      const sun = hour >= 7 && hour <= 19 ? Math.max(0, 1 - winter) * 4 * Math.sin((Math.PI * (hour - 7)) / 12) : 0;
      for (let c = 0; c < cells; c++) {
        const i = t * cells + c;
        const jitter = 1 + 0.05 * noise.normal();
        const ucomfort = Math.max(0, wind * exposure[c] * jitter);
        out.no2[i] = pack('no2', no2 * canyon[c] * jitter);
        out.pm25[i] = pack('pm25', pm25 * jitter);
        out.pm10[i] = pack('pm10', (1.5 * pm25 + 4) * jitter);
        out.ucomfort[i] = pack('ucomfort', ucomfort);
        out.ugust[i] = pack('ugust', ucomfort * (1.5 + 0.2 * noise.normal()));
        out.utci[i] = pack('utci', air + sun * (1 - shade[c]) * 2 - 0.7 * (ucomfort - 1));
      }
    }
    chunks.push(out);
  }
  return chunks;
}
