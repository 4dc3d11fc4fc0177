/**
 * Shapes of the public reference data served by `GET /scales` and `GET /scales/{scale}`. Field names follow the
 * interface spec (sections View, ScaleSummary, Scale and the class object), so the API layer serialises them as
 * they are.
 */

/** Metrics that have map layers and therefore views and scales (`noise` has none). */
export const SCALE_METRICS = ['air', 'wind', 'thermal'] as const;

/** One of `air`, `wind`, `thermal`. */
export type ScaleMetric = (typeof SCALE_METRICS)[number];

/** How a client draws the legend: a swatch list or a colour bar. */
export type ScaleKind = 'classes' | 'gradient';

/** The four comparison operators a `when` test may use (spec: exactly one per test). */
export const WHEN_OPS = ['lt', 'lte', 'gt', 'gte'] as const;

/** A comparison operator of a `when` test. */
export type WhenOp = (typeof WHEN_OPS)[number];

/** One machine-readable test: a tile field and exactly one operator key (a `WhenOp`) holding a numeric operand. */
export type WhenTest = { [Op in WhenOp]: { readonly field: string } & { readonly [K in Op]: number } }[WhenOp];

/** A class rule with exactly one key: every test must hold (`all`) or at least one (`any`). */
export type When = { readonly all: readonly WhenTest[] } | { readonly any: readonly WhenTest[] };

/**
 * Range of one class. On value-based scales `from` is exclusive and `to` inclusive; on gradients `from` is the
 * lower-inclusive band start (or stop position). `to` is null on an open-ended last class.
 */
export interface ClassBounds {
  readonly from: number;
  readonly to: number | null;
}

/** One class (or gradient band) of a scale, in display order. */
export interface ScaleClass {
  /** Numeric class on `classes` scales (1 = lowest); absent on gradient bands. */
  readonly value?: number;
  readonly label: string;
  /** Hex colour `#RRGGBB`, upper case. */
  readonly color: string;
  readonly bounds?: ClassBounds;
  readonly meaning?: string;
  /** Human-readable rule, on classes decided by more than one field. */
  readonly condition?: string;
  /** Machine-readable form of `condition`. */
  readonly when?: When;
}

/** One pollutant entry of an index scale's `thresholds`. */
export interface PollutantThreshold {
  /** Tile property holding the concentration. */
  readonly field: string;
  /** Upper concentration bounds (µg/m3, inclusive) of classes 1 to 9; above the last bound is class 10. */
  readonly bounds: readonly number[];
  /** True when a reading of zero or below means no reading. */
  readonly zero_means_missing?: boolean;
}

/** The entries of `GET /scales`: the fields a client needs to list and pick scales. */
export interface ScaleSummary {
  readonly id: string;
  readonly metric: ScaleMetric;
  /** The view this scale colours. */
  readonly view: string;
  readonly name: string;
  /** Who defines the scale. */
  readonly authority: string;
  readonly kind: ScaleKind;
  /** Present and true on the view's default scale only. */
  readonly default?: true;
}

/** A full scale (`GET /scales/{scale}`): the summary plus classes, fields and reading rules. */
export interface Scale extends ScaleSummary {
  readonly description: string;
  /** Tile properties the scale reads. */
  readonly fields: readonly string[];
  /** Unit of classified values; absent on index (dimensionless) scales. */
  readonly unit?: string;
  readonly classes: readonly ScaleClass[];
  /** Gradient only: true when each `bounds.from` is a stop to interpolate between. */
  readonly interpolate?: boolean;
  /** Gradient only: true when `bounds.from` is a 0..1 position in a published range, not a value in the unit. */
  readonly relative?: boolean;
  /** Relative scales only: the range used when the map catalog publishes none. */
  readonly fallback_range?: { readonly min: number; readonly max: number };
  readonly zero_means_missing?: boolean;
  readonly no_data_color?: string;
  /** Index scales only, keyed by pollutant (`no2`, `pm25`, `pm10`). */
  readonly thresholds?: Readonly<Record<string, PollutantThreshold>>;
}

/** One way of plotting a metric; every view of a metric reads the same vector tile. */
export interface View {
  readonly id: string;
  readonly metric: ScaleMetric;
  readonly name: string;
  readonly description?: string;
  /** Tile properties the view reads. */
  readonly fields: readonly string[];
  /** Tile property to display label (spec table "Map layers and tile fields"). */
  readonly field_labels?: Readonly<Record<string, string>>;
  /** Scale ids valid for this view, in display order. */
  readonly scales: readonly string[];
  readonly default_scale: string;
  /** Present and true on the metric's default view only. */
  readonly default?: true;
}

/** Display labels of tile properties, from the spec's "Map layers and tile fields" table. */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  UTCI: 'Temperature UTCI',
  Ucomfort: 'Wind',
  Ugust: 'Gust',
  C: 'NO2',
  C_PM25: 'PM2.5',
  C_PM10: 'PM10',
};

/** The labels of `fields`, for a view's `field_labels`. */
export function fieldLabels(fields: readonly string[]): Readonly<Record<string, string>> {
  return Object.fromEntries(fields.map((f) => [f, FIELD_LABELS[f] ?? f]));
}
