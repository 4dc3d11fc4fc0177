import { BRUSSELS_ZONE, NATIONWIDE_EXTENT, type ZoneRect } from '../cities/zones.js';
import { REFERENCE_LOCATIONS } from '../cities/landmarks.js';
import type { HourlyField } from '../store/dataset-types.js';

/**
 * What `svc data generate` writes for each preset: exactly the datasets statistics are answered from
 * (`ANSWERING_DATASETS` of the catalogue) — the Brussels street-level model over its zone and the nationwide grid
 * over Belgium's extent. Other covered cities (Ghent) have no dataset of their own: the nationwide one answers there.
 * Coverage areas are the same for demo and fixture; the fixture is coarser so tests generate it in seconds.
 */

/** Generation presets. */
export const PRESETS = ['demo', 'fixture', 'bench'] as const;
export type Preset = (typeof PRESETS)[number];

/** The plan of one dataset. */
export interface DatasetPlan {
  readonly id: string;
  readonly title: string;
  /** `street`: buildings and streets (city zones); `lowres`: open cells over Belgium. */
  readonly model: 'street' | 'lowres';
  readonly rect: ZoneRect;
  readonly resolution_m: number;
  readonly fields: readonly HourlyField[];
  readonly chunkCells: number;
  /** Street model only: a square framed by buildings instead of a street grid (benchmark block, a fully outdoor 50 m radius). */
  readonly plaza?: boolean;
  /** Street model only: landmark squares kept open, WGS 84 [lon, lat]. */
  readonly landmarks?: readonly (readonly [number, number])[];
  /**
   * Street model only: the rectangle is `cols × rows` copies of `base` (its south-west tile), each with the same cell
   * features (a scaled dataset, scaled-plans.ts).
   */
  readonly tiling?: { readonly cols: number; readonly rows: number; readonly base: ZoneRect };
}

/** The landmark squares of a city as [lon, lat] pairs. */
function landmarksOf(city: string): [number, number][] {
  return (REFERENCE_LOCATIONS[city] ?? []).map((l) => [l.lon, l.lat]);
}

const ALL_FIELDS: readonly HourlyField[] = ['no2', 'pm25', 'pm10', 'ucomfort', 'ugust', 'utci'];
const LOWRES_FIELDS: readonly HourlyField[] = ['no2', 'pm25', 'pm10', 'utci'];

/** The benchmark block: 128 m × 128 m at 1 m in the south-west corner of the Brussels zone (a square framed by buildings). */
export const BENCH_RECT: ZoneRect = {
  xmin: BRUSSELS_ZONE.xmin,
  ymin: BRUSSELS_ZONE.ymin,
  xmax: BRUSSELS_ZONE.xmin + 128,
  ymax: BRUSSELS_ZONE.ymin + 128,
};

/** Dataset plans of a preset. */
export function presetPlans(preset: Preset): DatasetPlan[] {
  const brussels = (resolution_m: number): DatasetPlan => ({
    id: 'brussels_extended', title: 'Brussels street-level model', model: 'street', rect: BRUSSELS_ZONE,
    resolution_m, fields: ALL_FIELDS, chunkCells: 8, landmarks: landmarksOf('brussels'),
  });
  const belgium = (resolution_m: number): DatasetPlan => ({
    id: 'belgium_lowres', title: 'Belgium nationwide low-resolution model', model: 'lowres', rect: NATIONWIDE_EXTENT,
    resolution_m, fields: LOWRES_FIELDS, chunkCells: 8,
  });
  switch (preset) {
    case 'demo':
      return [brussels(10), belgium(5000)];
    case 'fixture':
      return [brussels(20), belgium(20000)];
    case 'bench':
      return [{
        id: 'bench_1m', title: 'Benchmark block at 1 m', model: 'street', rect: BENCH_RECT, resolution_m: 1,
        fields: ALL_FIELDS, chunkCells: 8, plaza: true,
      }];
  }
}
