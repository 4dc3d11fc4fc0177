/**
 * The figures of the city atlas: for each grid the whole-city precompute writes, the statistics-envelope field it
 * holds (its value at a cell is that field of `GET /historical/stats` at the cell's centre with point sampling), its
 * unit and meaning, the decimals the envelope publishes, the file it is exported as (the field with dots as
 * underscores) and how coarser views (GeoTIFF overviews, map tiles at low zooms) combine cells. The atlas export
 * (src/atlas/) and the annual map layers (src/map/annual-layers.ts) both read this one list.
 */
import { POLLUTANTS } from '../classification/belaqi.js';
import { WIND_EXCEEDANCE_KEYS, type WindExceedanceKey } from './scoring.js';

/**
 * The grids the precompute writes, in order. NaN where a cell is a building or the metric is not modelled. Each holds
 * one field of the statistics envelope (`ATLAS_FIGURES` below names it); `air_limiting_pollutant` codes
 * `air.limiting_pollutant` as 1 NO2, 2 PM2.5, 3 PM10.
 */
export const PRECOMPUTE_GRIDS = [
  'air_rating', 'air_score', 'air_good_pct', 'wind_rating', 'wind_score', 'thermal_rating', 'thermal_score',
  'summer_night_mean_utci_c',
  'air_annual_mean_ugm3_no2', 'air_annual_mean_ugm3_pm25', 'air_annual_mean_ugm3_pm10', 'air_limiting_pollutant',
  'wind_calm_pct', 'wind_exceedance_pct_above_frequent_sitting', 'wind_exceedance_pct_slightly_windy_or_worse',
  'wind_exceedance_pct_windy_or_worse', 'wind_exceedance_pct_very_windy_or_worse', 'wind_exceedance_pct_danger',
  'wind_worst_moment_ms', 'thermal_summer_day_comfort_pct', 'thermal_comfort_pct',
  'wind_mean_ucomfort_ms', 'wind_max_gust_ms', 'thermal_mean_utci_c', 'thermal_min_utci_c', 'thermal_max_utci_c',
  'air_day_good_pct', 'air_night_good_pct', 'thermal_strong_heat_stress_days', 'thermal_tropical_nights',
  'wind_p95_ucomfort_ms',
] as const;
/** One precomputed grid's name. */
export type PrecomputeGrid = (typeof PRECOMPUTE_GRIDS)[number];

/** The metric block a figure belongs to. */
export type AtlasBlock = 'air' | 'wind' | 'thermal';

/** One figure of the atlas. */
export interface AtlasFigure {
  /** The precompute grid holding it. */
  readonly grid: PrecomputeGrid;
  /** The envelope field, `<block>.<field>`. */
  readonly field: string;
  readonly block: AtlasBlock;
  /** A short name for legends and panels. */
  readonly label: string;
  /** Unit as GIS software shows it ('' for a pure number). */
  readonly unit: string;
  readonly meaning: string;
  /** Overviews: the mean of the cells with a value, or one cell's value (coded figures). */
  readonly resampling: 'average' | 'nearest';
  /** A coded figure's classes: each code and the name it stands for. */
  readonly categories?: readonly FigureCategory[];
}

/** One class of a coded figure. */
export interface FigureCategory {
  readonly value: number;
  readonly name: string;
}

const RATING = 'out of 10';

const POLLUTANT_LABELS = { no2: 'NO2', pm25: 'PM2.5', pm10: 'PM10' } as const;

/** The unit of concentrations as people read it. */
const UG_M3 = 'µg/m³';

/** The codes of `air.limiting_pollutant`: 1 + the pollutant's place in `POLLUTANTS` (precompute-row-per-cell.ts). */
export const LIMITING_POLLUTANT_CODES: readonly FigureCategory[] = POLLUTANTS.map((p, i) => ({ value: i + 1, name: POLLUTANT_LABELS[p] }));

/** What each exceedance threshold is (docs/statistics.md, wind block). */
const EXCEEDANCE_MEANINGS: Readonly<Record<WindExceedanceKey, string>> = {
  above_frequent_sitting: 'with a mean speed above 2.5 m/s (too windy for frequent sitting)',
  slightly_windy_or_worse: 'Slightly windy or worse (class 2 and above)',
  windy_or_worse: 'Windy or worse (class 3 and above)',
  very_windy_or_worse: 'Very windy or worse (class 4 and above)',
  danger: 'in the Danger class (5)',
};

/** Short names of the exceedance shares. */
const EXCEEDANCE_LABELS: Readonly<Record<WindExceedanceKey, string>> = {
  above_frequent_sitting: 'Too windy to sit',
  slightly_windy_or_worse: 'Slightly windy or worse',
  windy_or_worse: 'Windy or worse',
  very_windy_or_worse: 'Very windy or worse',
  danger: 'Dangerous wind',
};

/** Every figure, in export order. */
export const ATLAS_FIGURES: readonly AtlasFigure[] = [
  { grid: 'air_rating', label: 'Air rating', field: 'air.rating', block: 'air', unit: RATING, resampling: 'average',
    meaning: 'Air rating: good hours (BelAQI class 1–4) per graded hour, × 10.' },
  { grid: 'air_score', label: 'Air score', field: 'air.score', block: 'air', unit: RATING, resampling: 'average',
    meaning: 'Air score: the lowest of the WHO 2021 annual-mean scores of NO2, PM2.5 and PM10.' },
  { grid: 'air_good_pct', label: 'Good-air hours', field: 'air.good_pct', block: 'air', unit: '%', resampling: 'average',
    meaning: 'Share of the graded hours with good air (BelAQI class 1–4).' },
  { grid: 'wind_rating', label: 'Wind rating', field: 'wind.rating', block: 'wind', unit: RATING, resampling: 'average',
    meaning: 'Wind comfort rating: the score, capped by the ladder of the windiest hour\'s effective speed.' },
  { grid: 'wind_score', label: 'Wind score', field: 'wind.score', block: 'wind', unit: RATING, resampling: 'average',
    meaning: 'Wind comfort score: bands 10 to 0 from the shares of hours above each comfort threshold.' },
  { grid: 'thermal_rating', label: 'Thermal rating', field: 'thermal.rating', block: 'thermal', unit: RATING, resampling: 'average',
    meaning: 'Thermal comfort rating: the lowest comfortable daytime share of spring, summer and autumn, / 10.' },
  { grid: 'thermal_score', label: 'Thermal score', field: 'thermal.score', block: 'thermal', unit: RATING, resampling: 'average',
    meaning: 'Thermal comfort score: the lowest season score of the acceptable daytime share.' },
  { grid: 'summer_night_mean_utci_c', label: 'Summer-night UTCI', field: 'thermal.summer_night_mean_utci_c', block: 'thermal', unit: '°C',
    resampling: 'average', meaning: 'Mean UTCI of the summer night hours.' },
  { grid: 'air_day_good_pct', label: 'Good-air hours, day', field: 'air.day_good_pct', block: 'air', unit: '%', resampling: 'average',
    meaning: 'Share of the graded daytime hours with good air.' },
  { grid: 'air_night_good_pct', label: 'Good-air hours, night', field: 'air.night_good_pct', block: 'air', unit: '%', resampling: 'average',
    meaning: 'Share of the graded night hours with good air.' },
  ...(['no2', 'pm25', 'pm10'] as const).map((p): AtlasFigure => ({
    grid: `air_annual_mean_ugm3_${p}`, label: `Annual mean ${POLLUTANT_LABELS[p]}`, field: `air.annual_mean_ugm3.${p}`, block: 'air', unit: UG_M3,
    resampling: 'average', meaning: `Annual mean concentration of ${POLLUTANT_LABELS[p]}.`,
  })),
  { grid: 'air_limiting_pollutant', label: 'Limiting pollutant', field: 'air.limiting_pollutant', block: 'air', unit: 'code', resampling: 'nearest',
    meaning: 'The pollutant that sets the air score, coded 1 NO2, 2 PM2.5, 3 PM10.', categories: LIMITING_POLLUTANT_CODES },
  { grid: 'wind_calm_pct', label: 'Calm hours', field: 'wind.calm_pct', block: 'wind', unit: '%', resampling: 'average',
    meaning: 'Share of the valid hours in the Calm class (mean speed below 4 m/s, gusts below 10 m/s).' },
  ...WIND_EXCEEDANCE_KEYS.map((k): AtlasFigure => ({
    grid: `wind_exceedance_pct_${k}`, label: EXCEEDANCE_LABELS[k], field: `wind.exceedance_pct.${k}`, block: 'wind', unit: '%',
    resampling: 'average', meaning: `Share of the valid hours ${EXCEEDANCE_MEANINGS[k]}.`,
  })),
  { grid: 'wind_worst_moment_ms', label: 'Windiest hour', field: 'wind.worst_moment_ms', block: 'wind', unit: 'm/s', resampling: 'average',
    meaning: 'The windiest hour: its effective speed, the larger of the mean speed and 0.8 × the gust.' },
  { grid: 'wind_mean_ucomfort_ms', label: 'Mean wind speed', field: 'wind.mean_ucomfort_ms', block: 'wind', unit: 'm/s', resampling: 'average',
    meaning: 'Mean wind speed at pedestrian height (Ucomfort) over the valid hours.' },
  { grid: 'wind_p95_ucomfort_ms', label: 'Wind speed, 95th percentile', field: 'wind.p95_ucomfort_ms', block: 'wind', unit: 'm/s', resampling: 'average',
    meaning: '95th percentile of the hourly wind speed at pedestrian height (Ucomfort).' },
  { grid: 'wind_max_gust_ms', label: 'Strongest gust', field: 'wind.max_gust_ms', block: 'wind', unit: 'm/s', resampling: 'average',
    meaning: 'The strongest gust of the year.' },
  { grid: 'thermal_summer_day_comfort_pct', label: 'Comfortable summer daytime', field: 'thermal.summer_day_comfort_pct', block: 'thermal', unit: '%',
    resampling: 'average', meaning: 'Comfortable share (UTCI 9–26 °C) of the summer daytime hours.' },
  { grid: 'thermal_comfort_pct', label: 'Comfortable hours', field: 'thermal.comfort_pct', block: 'thermal', unit: '%', resampling: 'average',
    meaning: 'Comfortable share (UTCI 9–26 °C) of every hour with data, day and night.' },
  { grid: 'thermal_strong_heat_stress_days', label: 'Strong heat-stress days', field: 'thermal.strong_heat_stress_days', block: 'thermal', unit: 'days',
    resampling: 'average', meaning: 'Local dates whose highest hourly UTCI is above 32 °C (strong heat stress).' },
  { grid: 'thermal_tropical_nights', label: 'Tropical nights', field: 'thermal.tropical_nights', block: 'thermal', unit: 'nights',
    resampling: 'average', meaning: 'Nights (20:00–08:00) whose lowest hourly UTCI is above 20 °C.' },
  { grid: 'thermal_mean_utci_c', label: 'Mean UTCI', field: 'thermal.mean_utci_c', block: 'thermal', unit: '°C', resampling: 'average',
    meaning: 'Annual mean UTCI.' },
  { grid: 'thermal_min_utci_c', label: 'Lowest UTCI', field: 'thermal.min_utci_c', block: 'thermal', unit: '°C', resampling: 'average',
    meaning: 'Lowest hourly UTCI of the year.' },
  { grid: 'thermal_max_utci_c', label: 'Highest UTCI', field: 'thermal.max_utci_c', block: 'thermal', unit: '°C', resampling: 'average',
    meaning: 'Highest hourly UTCI of the year.' },
];

/** Decimals the envelope publishes a figure with: m/s two, counts and codes none, everything else one. */
export function figureDecimals(figure: AtlasFigure): number {
  if (figure.unit === 'm/s') return 2;
  return figure.unit === 'days' || figure.unit === 'nights' || figure.categories !== undefined ? 0 : 1;
}

/** The figure's name within its block: the envelope field without the block, dots as underscores (`good_pct`). */
export function figureProperty(figure: AtlasFigure): string {
  return figure.field.slice(figure.block.length + 1).replace(/\./g, '_');
}

/** The file a figure is exported as: its field with dots as underscores, `.tif`. */
export function figureFile(figure: AtlasFigure): string {
  return `${figure.field.replace(/\./g, '_')}.tif`;
}
