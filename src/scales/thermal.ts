/**
 * Thermal views and scales over the tile field `UTCI` (°C). `thermal-utci` publishes the shared UTCI classification
 * (src/classification/utci.ts: the ten assessment categories, the one the statistics and kernels use);
 * `thermal-utci-relative` colours the hour's published UTCI range.
 */
import { ACCEPTABLE_UTCI, COMFORTABLE_UTCI, UTCI_FLOOR_C, UTCI_LABELS, UTCI_UPPER_BOUNDS_C } from '../classification/utci.js';
import { NO_DATA_COLOR, formatNumber } from './palette.js';
import { fieldLabels, type Scale, type ScaleClass, type View } from './scale-types.js';

/** UTCI category names (the published assessment scale), used as each class's meaning. */
const UTCI_CATEGORIES = [
  'extreme cold stress',
  'very strong cold stress',
  'strong cold stress',
  'moderate cold stress',
  'slight cold stress',
  'no thermal stress',
  'moderate heat stress',
  'strong heat stress',
  'very strong heat stress',
  'extreme heat stress',
] as const;

/** Cold to hot, as published by the BHoM LadybugTools toolkit. */
const UTCI_COLORS = [
  '#0D104B',
  '#262972',
  '#3452A4',
  '#3C65AF',
  '#37BCED',
  '#2EB349',
  '#F38322',
  '#C31F25',
  '#7F1416',
  '#580002',
] as const;

function utciClasses(): ScaleClass[] {
  return UTCI_LABELS.map((label, i) => {
    const from = i === 0 ? UTCI_FLOOR_C : UTCI_UPPER_BOUNDS_C[i - 1];
    const to = i < UTCI_UPPER_BOUNDS_C.length ? UTCI_UPPER_BOUNDS_C[i] : null;
    const range = to === null ? `above ${formatNumber(from)} °C` : `${formatNumber(from)} to ${formatNumber(to)} °C`;
    return {
      value: i + 1,
      label,
      color: UTCI_COLORS[i],
      bounds: { from, to },
      meaning: `UTCI ${range}: ${UTCI_CATEGORIES[i]}.`,
    };
  });
}

/** Range the relative scale maps onto when the map catalog publishes none. */
const UTCI_FALLBACK_RANGE_C = Object.freeze({ min: -10, max: 40 });

/** ColorBrewer 2.0 RdYlBu, 11 classes (Cynthia Brewer, Penn State), reversed to run cold (blue) to warm (red). */
const RELATIVE_COLORS = [
  '#313695',
  '#4575B4',
  '#74ADD1',
  '#ABD9E9',
  '#E0F3F8',
  '#FFFFBF',
  '#FEE090',
  '#FDAE61',
  '#F46D43',
  '#D73027',
  '#A50026',
] as const;

/** Eleven stops at positions 0, 0.1, …, 1 of the published range; the last stop is open-ended. */
function relativeStops(): ScaleClass[] {
  const n = RELATIVE_COLORS.length - 1;
  return RELATIVE_COLORS.map((color, i) => {
    const pct = Math.round((100 * i) / n);
    const note = i === 0 ? ' (coolest)' : i === n ? ' (warmest)' : i * 2 === n ? ' (middle)' : '';
    return {
      label: `${pct} %${note}`,
      color,
      bounds: { from: i / n, to: i < n ? (i + 1) / n : null },
    };
  });
}

/** The two thermal scales. */
export const THERMAL_SCALES: readonly Scale[] = [
  {
    id: 'thermal-utci',
    metric: 'thermal',
    view: 'stress',
    name: 'Thermal stress (UTCI)',
    authority: 'UTCI assessment scale (ISB Commission 6, COST Action 730)',
    kind: 'classes',
    default: true,
    description:
      'Universal Thermal Climate Index in its ten stress categories. Exclusive lower, inclusive upper bounds; a ' +
      `value at or below ${UTCI_FLOOR_C} °C takes the lowest class. The band ${COMFORTABLE_UTCI.above} to ` +
      `${COMFORTABLE_UTCI.upTo} °C is no thermal stress (Comfortable); ${ACCEPTABLE_UTCI.above} to ` +
      `${ACCEPTABLE_UTCI.upTo} °C is the acceptable range used by scoring.`,
    fields: ['UTCI'],
    unit: '°C',
    classes: utciClasses(),
    no_data_color: NO_DATA_COLOR,
  },
  {
    id: 'thermal-utci-relative',
    metric: 'thermal',
    view: 'temperature',
    name: 'UTCI temperature (relative)',
    authority: 'svc-api',
    kind: 'gradient',
    default: true,
    description:
      'UTCI temperature coloured relative to the range of the hour: stop positions 0 to 1 map onto the range the ' +
      `map catalog publishes for the thermal layer at that timestep (range {min, max}), or onto ` +
      `${UTCI_FALLBACK_RANGE_C.min} to ${UTCI_FALLBACK_RANGE_C.max} °C when none is published. Colours are ` +
      'interpolated between stops; values outside the range take the end colours.',
    fields: ['UTCI'],
    unit: '°C',
    interpolate: true,
    relative: true,
    fallback_range: UTCI_FALLBACK_RANGE_C,
    classes: relativeStops(),
    no_data_color: NO_DATA_COLOR,
  },
];

/** The two thermal views: `stress` (default) and `temperature`. */
export const THERMAL_VIEWS: readonly View[] = [
  {
    id: 'stress',
    metric: 'thermal',
    name: 'Thermal stress',
    description: 'UTCI stress category at pedestrian level.',
    fields: ['UTCI'],
    field_labels: fieldLabels(['UTCI']),
    scales: ['thermal-utci'],
    default_scale: 'thermal-utci',
    default: true,
  },
  {
    id: 'temperature',
    metric: 'thermal',
    name: 'Temperature',
    description: 'UTCI temperature at pedestrian level, coloured relative to the hour’s range.',
    fields: ['UTCI'],
    field_labels: fieldLabels(['UTCI']),
    scales: ['thermal-utci-relative'],
    default_scale: 'thermal-utci-relative',
  },
];
