import { FIELD_ENCODINGS, type ChunkShape, type GridGeometry, type HourlyField } from '../store/dataset-types.js';
import { SECTORS, type CellFeatures } from './cell-features.js';
import { wholeGrid, windowWidth, type GridWindow } from './grid-window.js';
import { ENCLOSED_SKY_VIEW, type HourlyDrivers } from './drivers.js';
import { OPEN_SITE_TI } from './storm.js';
import { lookupUtci, type UtciGrid } from './utci-grid.js';

/**
 * The per-cell-hour physics of the stand-in model, filling one chunk (whole year × block of cells) of raw int16 values
 * per field. Runs inside generator threads.
 *
 * - NO2 = background × dispersion + traffic increment × exposure × street-canyon factor (recirculation in deep
 *   canyons, diluted by wind); PM2.5/PM10 = regional (with winter episodes) + traffic share; PM10 ≥ PM2.5.
 * - Ucomfort = 10 m wind × the cell's speed ratio for the wind's sector (pedestrian-wind.ts); Ugust = Ucomfort + g·σu
 *   with σu the cell's turbulence × the reference wind: the open site's gust excess (gust10 − wind10 = g·0.22·U10,
 *   more at a storm's front, storm.ts) scaled by the cell's turbulence over the open site's.
 * Every cell has a series of its own, as in a street-level model's output: the local increment depends on the cell's
 * position across the street and on the wind sector (canyon vortex, plume meander), wind, gusts, radiant load and air
 * temperature carry spatially correlated structure a few metres long (fine-features.ts); the hourly weather is the
 * only randomness in time.
 * - UTCI from air temperature, humidity, 10 m wind (1.5 × pedestrian speed, log profile) and Tmrt−Ta for sun or shade
 *   (shade when the sun is below the cell's horizon in its azimuth sector), interpolated by sky view factor.
 */
export interface ChunkInputs {
  readonly grid: GridGeometry;
  readonly chunk: ChunkShape;
  /** The features of the cells of `window`. */
  readonly features: CellFeatures;
  /** The window of the grid `features` covers (default: the whole grid); it must hold every chunk filled. */
  readonly window?: GridWindow;
  readonly drivers: HourlyDrivers;
  readonly utci?: UtciGrid | undefined;
}

/** Allocates one chunk per field, pre-filled with the fill value. */
function allocate(fields: readonly HourlyField[], size: number): Map<HourlyField, Int16Array> {
  const out = new Map<HourlyField, Int16Array>();
  for (const f of fields) out.set(f, new Int16Array(size).fill(FIELD_ENCODINGS[f]._FillValue));
  return out;
}

/**
 * Soft ceiling for concentrations (µg/m3): linear at ordinary levels, saturating towards `CONCENTRATION_CEILING` in
 * extreme stagnation, as street canyons never accumulate without bound (hourly NO2 at Brussels traffic stations rarely
 * exceeds ~250 µg/m3).
 */
const CONCENTRATION_CEILING = 320;
function soft(value: number): number {
  return CONCENTRATION_CEILING * Math.tanh(value / CONCENTRATION_CEILING);
}

/** Packs a physical value into raw int16 with the field's scale (offset 0), clamped to the int16 range. */
function pack(value: number, scale: number): number {
  const raw = Math.round(value / scale);
  return raw > 32767 ? 32767 : raw < -32767 ? -32767 : raw;
}

/** Computes the chunk at (chunkRow, chunkCol) for `fields`; cells outside the grid or inside buildings stay fill. */
export function fillChunk(inputs: ChunkInputs, fields: readonly HourlyField[], chunkRow: number, chunkCol: number) {
  const { grid, chunk, features: fx, drivers: d, utci } = inputs;
  const window = inputs.window ?? wholeGrid(grid);
  const width = windowWidth(window);
  const [top, left] = [chunkRow * chunk.rows, chunkCol * chunk.cols];
  if (top < window.r0 || left < window.c0 || Math.min(grid.ny, top + chunk.rows) > window.r1 || Math.min(grid.nx, left + chunk.cols) > window.c1) {
    throw new RangeError(`Chunk (${chunkRow}, ${chunkCol}) is not within the features' window (rows ${window.r0}–${window.r1}, columns ${window.c0}–${window.c1}).`);
  }
  const cellsPerChunk = chunk.rows * chunk.cols;
  const hours = chunk.hours;
  const out = allocate(fields, hours * cellsPerChunk);
  const no2 = out.get('no2');
  const pm25 = out.get('pm25');
  const pm10 = out.get('pm10');
  const uc = out.get('ucomfort');
  const ug = out.get('ugust');
  const ut = out.get('utci');
  const sc = FIELD_ENCODINGS;
  // Typed arrays hoisted into locals: the inner loop runs for every cell-hour.
  const { bgNo2, trafficNo2, bgPm25, coarsePm, trafficPm, wind10, gust10, windSector, sunElevation, sunSector, radiant } = d;
  const { outdoor, traffic, canyon, background, turbulence, skyView, taOffset: taOffsets, windFactor, horizon, pollution, radiantGain } = fx;
  const sNo2 = sc.no2.scale_factor;
  const sPm25 = sc.pm25.scale_factor;
  const sPm10 = sc.pm10.scale_factor;
  const sUc = sc.ucomfort.scale_factor;
  const sUg = sc.ugust.scale_factor;
  const sUt = sc.utci.scale_factor;
  for (let r = 0; r < chunk.rows; r++) {
    const row = chunkRow * chunk.rows + r;
    if (row >= grid.ny) break;
    for (let c = 0; c < chunk.cols; c++) {
      const col = chunkCol * chunk.cols + c;
      if (col >= grid.nx) break;
      const i = (row - window.r0) * width + col - window.c0;
      if (!outdoor[i]) continue;
      const k = r * chunk.cols + c;
      const exposure = traffic[i] * (1 + 0.6 * Math.min(canyon[i], 2));
      const bg = background[i];
      const gustScale = turbulence[i] / OPEN_SITE_TI;
      const svfWeight = Math.min(1, Math.max(0, (skyView[i] - ENCLOSED_SKY_VIEW) / (1 - ENCLOSED_SKY_VIEW)));
      const taOffset = taOffsets[i];
      const radiantScale = radiantGain[i];
      const windBase = i * SECTORS;
      for (let t = 0; t < hours; t++) {
        const o = t * cellsPerChunk + k;
        const localExposure = exposure * pollution[windBase + windSector[t]];
        if (no2) no2[o] = pack(soft(bgNo2[t] * bg + trafficNo2[t] * localExposure), sNo2);
        if (pm25 || pm10) {
          const local = trafficPm[t] * localExposure;
          const fine = bgPm25[t] * bg + 0.4 * local;
          if (pm25) pm25[o] = pack(soft(fine), sPm25);
          if (pm10) pm10[o] = pack(soft(fine + coarsePm[t] * bg + 0.6 * local), sPm10);
        }
        if (!uc && !ug && !ut) continue;
        const u = wind10[t] * windFactor[windBase + windSector[t]];
        if (uc) uc[o] = pack(u, sUc);
        if (ug) ug[o] = pack(u + gustScale * (gust10[t] - wind10[t]), sUg);
        if (ut && utci) {
          const elevation = sunElevation[t];
          const sunlit = elevation > 0 && elevation > horizon[windBase + sunSector[t]];
          const base = t * 4 + (sunlit ? 0 : 2);
          const dT = (radiant[base + 1] + (radiant[base] - radiant[base + 1]) * svfWeight) * radiantScale;
          // 10 m wind from the pedestrian speed (×1.5, log profile), never far above the reference wind itself.
          const va10 = Math.min(1.5 * u, 1.2 * wind10[t]);
          ut[o] = pack(lookupUtci(utci, t, va10, dT) + taOffset, sUt);
        }
      }
    }
  }
  return out;
}
