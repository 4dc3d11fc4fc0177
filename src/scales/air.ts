/**
 * Air views and scales: the BelAQI index (worst pollutant wins) and one concentration scale per pollutant on the same
 * hourly bounds and colours. Bounds and labels are the shared BelAQI classification (src/classification/belaqi.ts, the
 * one the statistics and kernels use); colours are IRCEL-CELINE's official legend (irceline/map_legends, colour change
 * of 2022-11-04). The street-level model has no ozone, so the index here is over NO2, PM2.5 and PM10 only.
 */
import { BELAQI_BOUNDS, BELAQI_LABELS, POLLUTANTS, type Pollutant } from '../classification/belaqi.js';
import { NO_DATA_COLOR, formatNumber } from './palette.js';
import { fieldLabels, type PollutantThreshold, type Scale, type ScaleClass, type View } from './scale-types.js';

/** Tile property of each pollutant (spec, "Map layers and tile fields"). */
export const POLLUTANT_FIELDS: Readonly<Record<Pollutant, string>> = { no2: 'C', pm25: 'C_PM25', pm10: 'C_PM10' };

/** Display name of each pollutant. */
const POLLUTANT_NAMES: Readonly<Record<Pollutant, string>> = { no2: 'NO2', pm25: 'PM2.5', pm10: 'PM10' };

/** Official BelAQI legend colours of classes 1 to 10. */
const BELAQI_COLORS = [
  '#0000FF',
  '#0099FF',
  '#009900',
  '#00FF00',
  '#FFFF00',
  '#FFBB00',
  '#FF6600',
  '#FF0000',
  '#CC0000',
  '#990099',
] as const;

/** IRCEL: below index 3 the WHO long-term guideline values are met, below 6 the short-term ones. */
function belaqiMeaning(value: number): string {
  if (value <= 2) return 'WHO short-term and long-term guideline values met.';
  if (value <= 5) return 'WHO short-term guideline values met.';
  return 'WHO short-term guideline values exceeded.';
}

const INDEX_CLASSES: readonly ScaleClass[] = BELAQI_LABELS.map((label, i) => ({
  value: i + 1,
  label,
  color: BELAQI_COLORS[i],
  meaning: belaqiMeaning(i + 1),
}));

/** `thresholds` of `air-belaqi`, exactly as the spec's table; NO2 at zero or below counts as absent. */
const THRESHOLDS: Readonly<Record<Pollutant, PollutantThreshold>> = {
  no2: { field: 'C', bounds: BELAQI_BOUNDS.no2, zero_means_missing: true },
  pm25: { field: 'C_PM25', bounds: BELAQI_BOUNDS.pm25 },
  pm10: { field: 'C_PM10', bounds: BELAQI_BOUNDS.pm10 },
};

/** Value-based classes of one pollutant: (previous bound, bound], starting at 0, the last open-ended. */
function concentrationClasses(pollutant: Pollutant): ScaleClass[] {
  const bounds = BELAQI_BOUNDS[pollutant];
  return BELAQI_LABELS.map((label, i) => {
    const from = i === 0 ? 0 : bounds[i - 1];
    const to = i < bounds.length ? bounds[i] : null;
    const range = to === null ? `above ${formatNumber(from)}` : `${formatNumber(from)} to ${formatNumber(to)}`;
    return {
      value: i + 1,
      label,
      color: BELAQI_COLORS[i],
      bounds: { from, to },
      meaning: `${POLLUTANT_NAMES[pollutant]} sub-index ${i + 1}: hourly concentration ${range} µg/m³.`,
    };
  });
}

function concentrationScale(pollutant: Pollutant): Scale {
  const name = POLLUTANT_NAMES[pollutant];
  const zeroMissing = pollutant === 'no2';
  return {
    id: `air-${pollutant}`,
    metric: 'air',
    view: pollutant,
    name: `${name} concentration (BelAQI classes)`,
    authority: 'IRCEL-CELINE (BelAQI hourly bounds, 2022)',
    kind: 'classes',
    default: true,
    description:
      `Hourly ${name} concentration in the ten BelAQI classes of that pollutant. Exclusive lower, inclusive upper ` +
      `bounds; a reading at or below the first lower bound takes class 1` +
      (zeroMissing ? ', except that zero or below means no reading.' : ' (zero is a valid reading).'),
    fields: [POLLUTANT_FIELDS[pollutant]],
    unit: 'µg/m³',
    classes: concentrationClasses(pollutant),
    ...(zeroMissing ? { zero_means_missing: true } : {}),
    no_data_color: NO_DATA_COLOR,
  };
}

/** The four air scales: the index, then NO2, PM2.5, PM10. */
export const AIR_SCALES: readonly Scale[] = [
  {
    id: 'air-belaqi',
    metric: 'air',
    view: 'index',
    name: 'Air quality index (BelAQI)',
    authority: 'IRCEL-CELINE (BelAQI, 2022)',
    kind: 'classes',
    default: true,
    description:
      'Belgian air quality index, 1 (Excellent) to 10 (Horrible). Each pollutant is classed on its own hourly ' +
      'bounds and the worst pollutant wins. Computed over NO2, PM2.5 and PM10 (ozone is not modelled at street ' +
      'level). A missing pollutant contributes nothing; with no pollutant the no-data colour applies.',
    fields: ['C', 'C_PM25', 'C_PM10'],
    classes: INDEX_CLASSES,
    no_data_color: NO_DATA_COLOR,
    thresholds: THRESHOLDS,
  },
  ...POLLUTANTS.map(concentrationScale),
];

function pollutantView(pollutant: Pollutant): View {
  const field = POLLUTANT_FIELDS[pollutant];
  return {
    id: pollutant,
    metric: 'air',
    name: POLLUTANT_NAMES[pollutant],
    description: `${POLLUTANT_NAMES[pollutant]} concentration, µg/m³.`,
    fields: [field],
    field_labels: fieldLabels([field]),
    scales: [`air-${pollutant}`],
    default_scale: `air-${pollutant}`,
  };
}

/** The four air views: `index` (default), then one per pollutant. */
export const AIR_VIEWS: readonly View[] = [
  {
    id: 'index',
    metric: 'air',
    name: 'Air quality index',
    description: 'BelAQI index over NO2, PM2.5 and PM10; the worst pollutant wins.',
    fields: ['C', 'C_PM25', 'C_PM10'],
    field_labels: fieldLabels(['C', 'C_PM25', 'C_PM10']),
    scales: ['air-belaqi'],
    default_scale: 'air-belaqi',
    default: true,
  },
  ...POLLUTANTS.map(pollutantView),
];
