/**
 * Wind views and scales. The comfort scales publish the shared wind classification (src/classification/wind.ts, the
 * one the statistics and kernels use) as machine-readable `when` rules: the hour class is the worse of the comfort
 * class from the mean speed (Lawson-style bands 4, 6, 8 m/s) and the gust class (10 m/s very windy); 15 m/s is the
 * safety threshold of NEN 8100 and the Lawson criteria.
 */
import { WIND_CLASS_LABELS, WIND_LIMITS_MS } from '../classification/wind.js';
import { NO_DATA_COLOR, formatNumber, rainbow } from './palette.js';
import { fieldLabels, type Scale, type ScaleClass, type View } from './scale-types.js';

const L = WIND_LIMITS_MS;

/** Class labels, meanings and rules shared by both comfort scales; only the colours differ. */
const COMFORT_CLASSES: readonly Omit<ScaleClass, 'color'>[] = [
  {
    value: 1,
    label: WIND_CLASS_LABELS[0],
    meaning: 'Comfortable for sitting and lingering.',
    condition: `Ucomfort < ${L.calm} and Ugust < ${L.gust}`,
    when: { all: [{ field: 'Ucomfort', lt: L.calm }, { field: 'Ugust', lt: L.gust }] },
  },
  {
    value: 2,
    label: WIND_CLASS_LABELS[1],
    meaning: 'Comfortable for standing and short stays.',
    condition: `${L.calm} <= Ucomfort <= ${L.slightlyWindy} and Ugust < ${L.gust}`,
    when: {
      all: [
        { field: 'Ucomfort', gte: L.calm },
        { field: 'Ucomfort', lte: L.slightlyWindy },
        { field: 'Ugust', lt: L.gust },
      ],
    },
  },
  {
    value: 3,
    label: WIND_CLASS_LABELS[2],
    meaning: 'Comfortable for walking.',
    condition: `${L.slightlyWindy} < Ucomfort <= ${L.windy} and Ugust < ${L.gust}`,
    when: {
      all: [
        { field: 'Ucomfort', gt: L.slightlyWindy },
        { field: 'Ucomfort', lte: L.windy },
        { field: 'Ugust', lt: L.gust },
      ],
    },
  },
  {
    value: 4,
    label: WIND_CLASS_LABELS[3],
    meaning: 'Uncomfortable for most outdoor activities.',
    condition: `Ucomfort > ${L.windy} or Ugust >= ${L.gust}`,
    when: { any: [{ field: 'Ucomfort', gt: L.windy }, { field: 'Ugust', gte: L.gust }] },
  },
  {
    value: 5,
    label: WIND_CLASS_LABELS[4],
    meaning: 'Unsafe for vulnerable pedestrians and cyclists (15 m/s safety threshold of NEN 8100 and Lawson).',
    condition: `Ucomfort > ${L.danger} or Ugust > ${L.danger}`,
    when: { any: [{ field: 'Ucomfort', gt: L.danger }, { field: 'Ugust', gt: L.danger }] },
  },
];

/** docs/scales.md: the NEN 8100 colour family, calm to danger: blue, cyan-green, yellow, red, magenta. */
const NEN8100_COLORS = ['#2166AC', '#35B779', '#FDE725', '#D7301F', '#C51B7D'] as const;

/** docs/scales.md: Okabe–Ito colours, ordered cool to hot and distinct for deuteranopes. */
const CVD_COLORS = ['#0072B2', '#56B4E9', '#F0E442', '#E69F00', '#D55E00'] as const;

const COMFORT_DESCRIPTION =
  'Pedestrian wind comfort and safety class of each hour. A feature takes the highest class value whose rule ' +
  'matches; the rules combine the mean comfort wind speed (Ucomfort) and the gust speed (Ugust).';

function comfortScale(id: string, name: string, colors: readonly string[], isDefault: boolean): Scale {
  return {
    id,
    metric: 'wind',
    view: 'comfort-safety',
    name,
    authority: 'Lawson comfort criteria (4, 6, 8 m/s) and the NEN 8100 safety threshold (15 m/s)',
    kind: 'classes',
    ...(isDefault ? { default: true as const } : {}),
    description: COMFORT_DESCRIPTION,
    fields: ['Ucomfort', 'Ugust'],
    unit: 'm/s',
    classes: COMFORT_CLASSES.map((c, i) => ({ ...c, color: colors[i] })),
    no_data_color: NO_DATA_COLOR,
  };
}

/** Number of rainbow bands; 30 bands of 0.5 m/s span 0 to 15 m/s (spec, wind rainbow scales). */
const RAINBOW_BANDS = 30;
const RAINBOW_STEP_MS = 0.5;

/** The 30 flat bands; the last is open-ended (`to` null): anything above 15 m/s takes the top colour. */
function rainbowBands(): ScaleClass[] {
  const colors = rainbow(RAINBOW_BANDS);
  return colors.map((color, i) => {
    const from = i * RAINBOW_STEP_MS;
    const last = i === RAINBOW_BANDS - 1;
    const to = from + RAINBOW_STEP_MS;
    return {
      label: last ? `${formatNumber(from)} m/s and above` : `${formatNumber(from)}–${formatNumber(to)} m/s`,
      color,
      bounds: { from, to: last ? null : to },
    };
  });
}

function rainbowScale(id: string, view: string, field: string, what: string): Scale {
  return {
    id,
    metric: 'wind',
    view,
    name: `${what} (rainbow)`,
    authority: 'svc-api',
    kind: 'gradient',
    default: true,
    description:
      `${what} in 30 flat bands of 0.5 m/s from 0 to 15 m/s, blue to red. Bands are lower-inclusive (a reading of ` +
      `exactly 0 is in the first band); anything above 15 m/s takes the top colour. Reads ${field} only.`,
    fields: [field],
    unit: 'm/s',
    interpolate: false,
    relative: false,
    classes: rainbowBands(),
    no_data_color: NO_DATA_COLOR,
  };
}

/** The four wind scales, in the spec's order. */
export const WIND_SCALES: readonly Scale[] = [
  comfortScale('wind-nen8100', 'Wind comfort and safety', NEN8100_COLORS, true),
  comfortScale('wind-cvd', 'Wind comfort and safety (colour-vision safe)', CVD_COLORS, false),
  rainbowScale('wind-mean-rainbow', 'mean', 'Ucomfort', 'Mean wind speed'),
  rainbowScale('wind-gust-rainbow', 'gust', 'Ugust', 'Gust speed'),
];

/** The three wind views (spec table "Views shown for wind"). */
export const WIND_VIEWS: readonly View[] = [
  {
    id: 'comfort-safety',
    metric: 'wind',
    name: 'Comfort and safety',
    description: 'Wind comfort class from mean and gust speed; the only view that shows the Danger condition.',
    fields: ['Ucomfort', 'Ugust'],
    field_labels: fieldLabels(['Ucomfort', 'Ugust']),
    scales: ['wind-nen8100', 'wind-cvd'],
    default_scale: 'wind-nen8100',
    default: true,
  },
  {
    id: 'mean',
    metric: 'wind',
    name: 'Mean wind speed',
    description: 'Pedestrian-level mean comfort wind speed, m/s.',
    fields: ['Ucomfort'],
    field_labels: fieldLabels(['Ucomfort']),
    scales: ['wind-mean-rainbow'],
    default_scale: 'wind-mean-rainbow',
  },
  {
    id: 'gust',
    metric: 'wind',
    name: 'Gust speed',
    description: 'Pedestrian-level gust speed, m/s.',
    fields: ['Ugust'],
    field_labels: fieldLabels(['Ugust']),
    scales: ['wind-gust-rainbow'],
    default_scale: 'wind-gust-rainbow',
  },
];
