/**
 * The figures of the city atlas: for each grid the whole-city precompute writes, the statistics-envelope field it
 * holds (its value at a cell is that field of `GET /historical/stats` at the cell's centre with point sampling), its
 * unit and meaning, the file it is exported as (the field with dots as underscores) and how its overviews combine
 * cells. Figures the precompute does not write are not listed.
 */
import type { PrecomputeGrid } from '../compute/precompute-publish.js';

/** The metric block a figure belongs to. */
export type AtlasBlock = 'air' | 'wind' | 'thermal';

/** One figure of the atlas. */
export interface AtlasFigure {
  /** The precompute grid holding it. */
  readonly grid: PrecomputeGrid;
  /** The envelope field, `<block>.<field>`. */
  readonly field: string;
  readonly block: AtlasBlock;
  /** Unit as GIS software shows it ('' for a pure number). */
  readonly unit: string;
  readonly meaning: string;
  /** Overviews: the mean of the cells with a value, or one cell's value (coded figures). */
  readonly resampling: 'average' | 'nearest';
}

const RATING = 'out of 10';

/** Every figure, in export order. */
export const ATLAS_FIGURES: readonly AtlasFigure[] = [
  { grid: 'air_rating', field: 'air.rating', block: 'air', unit: RATING, resampling: 'average',
    meaning: 'Air rating: good hours (BelAQI class 1–4) per graded hour, × 10.' },
  { grid: 'air_score', field: 'air.score', block: 'air', unit: RATING, resampling: 'average',
    meaning: 'Air score: the lowest of the WHO 2021 annual-mean scores of NO2, PM2.5 and PM10.' },
  { grid: 'air_good_pct', field: 'air.good_pct', block: 'air', unit: '%', resampling: 'average',
    meaning: 'Share of the graded hours with good air (BelAQI class 1–4).' },
  { grid: 'wind_rating', field: 'wind.rating', block: 'wind', unit: RATING, resampling: 'average',
    meaning: 'Wind comfort rating: the score, capped by the ladder of the windiest hour\'s effective speed.' },
  { grid: 'wind_score', field: 'wind.score', block: 'wind', unit: RATING, resampling: 'average',
    meaning: 'Wind comfort score: bands 10 to 0 from the shares of hours above each comfort threshold.' },
  { grid: 'thermal_rating', field: 'thermal.rating', block: 'thermal', unit: RATING, resampling: 'average',
    meaning: 'Thermal comfort rating: the lowest comfortable daytime share of spring, summer and autumn, / 10.' },
  { grid: 'thermal_score', field: 'thermal.score', block: 'thermal', unit: RATING, resampling: 'average',
    meaning: 'Thermal comfort score: the lowest season score of the acceptable daytime share.' },
  { grid: 'summer_night_mean_utci_c', field: 'thermal.summer_night_mean_utci_c', block: 'thermal', unit: '°C',
    resampling: 'average', meaning: 'Mean UTCI of the summer night hours.' },
];

/** The file a figure is exported as: its field with dots as underscores, `.tif`. */
export function figureFile(figure: AtlasFigure): string {
  return `${figure.field.replace(/\./g, '_')}.tif`;
}
