/** Schemas of `GET /scales` and `GET /scales/{scale}` (spec: View, ScaleSummary, Scale, class object). */
import { Type } from 'typebox';
import { SCALE_METRICS } from '../../scales/scale-types.js';
import { nullable, roArray, stringEnum } from './common.js';

const Metric = stringEnum(SCALE_METRICS);

const View = Type.Object({
  id: Type.String(),
  metric: Metric,
  name: Type.String(),
  description: Type.Optional(Type.String()),
  fields: roArray(Type.String(), { description: 'Tile properties the view reads.' }),
  field_labels: Type.Optional(Type.Record(Type.String(), Type.String())),
  scales: roArray(Type.String(), { description: 'Scale ids valid for this view, in display order.' }),
  default_scale: Type.String(),
  default: Type.Optional(Type.Boolean({ description: "Present and true on the metric's default view." })),
});

const summaryProperties = {
  id: Type.String(),
  metric: Metric,
  view: Type.String({ description: 'The view this scale colours.' }),
  name: Type.String(),
  authority: Type.Optional(Type.String({ description: 'Who defines the scale.' })),
  kind: stringEnum(['classes', 'gradient']),
  default: Type.Optional(Type.Boolean({ description: "Present and true on the view's default scale." })),
};

/** One entry of `GET /scales` `scales`. */
const ScaleSummarySchema = Type.Object(summaryProperties);

/** `GET /scales` 200. */
export const ScalesIndexSchema = Type.Object({ views: roArray(View), scales: roArray(ScaleSummarySchema) });

const WhenTest = Type.Object(
  {
    field: Type.String(),
    lt: Type.Optional(Type.Number()),
    lte: Type.Optional(Type.Number()),
    gt: Type.Optional(Type.Number()),
    gte: Type.Optional(Type.Number()),
  },
  { description: 'A tile field and exactly one of lt, lte, gt, gte.' },
);

const When = Type.Object(
  { all: Type.Optional(roArray(WhenTest)), any: Type.Optional(roArray(WhenTest)) },
  { description: 'Exactly one key, all or any.' },
);

const ScaleClass = Type.Object({
  value: Type.Optional(Type.Number()),
  label: Type.String(),
  color: Type.String({ pattern: '^#[0-9A-Fa-f]{6}$' }),
  bounds: Type.Optional(Type.Object({ from: Type.Number(), to: nullable(Type.Number()) })),
  meaning: Type.Optional(Type.String()),
  condition: Type.Optional(Type.String()),
  when: Type.Optional(When),
});

const Threshold = Type.Object({
  field: Type.String(),
  bounds: roArray(Type.Number(), { description: 'Upper bounds (inclusive) of classes 1 to 9, µg/m³.' }),
  zero_means_missing: Type.Optional(Type.Boolean()),
});

/** `GET /scales/{scale}` 200. */
export const ScaleSchema = Type.Object({
  ...summaryProperties,
  description: Type.Optional(Type.String()),
  fields: Type.Optional(roArray(Type.String())),
  unit: Type.Optional(Type.String()),
  classes: roArray(ScaleClass),
  interpolate: Type.Optional(Type.Boolean()),
  relative: Type.Optional(Type.Boolean()),
  fallback_range: Type.Optional(Type.Object({ min: Type.Number(), max: Type.Number() })),
  zero_means_missing: Type.Optional(Type.Boolean()),
  no_data_color: Type.Optional(Type.String()),
  thresholds: Type.Optional(Type.Record(Type.String(), Threshold)),
});

/** Query of `GET /scales`. */
export const ScalesQuerySchema = Type.Object({
  metric: Type.Optional(stringEnum(SCALE_METRICS, { description: 'Only views and scales of this metric.' })),
});

/** Path of `GET /scales/{scale}`; unknown ids answer 404. */
export const ScaleParamsSchema = Type.Object({ scale: Type.String({ description: 'One of the scale ids.' }) });
