/**
 * Colours of the map from a scale as `GET /v1/scales/{scale}` publishes it, never from colours of the page's own:
 * a MapLibre `fill-color` expression, the class of one feature (for the cell panel) and the legend entries, all three
 * reading the scale the same way:
 * - `thresholds` (index scales): each pollutant classed on its upper bounds (inclusive), the worst class wins; a
 *   missing pollutant (or NO2 at zero or below) contributes nothing; none at all is no data;
 * - `classes[].when`: the highest class value whose rule holds (a rule on a missing field does not hold);
 * - `classes[].bounds` on a `classes` scale: exclusive lower, inclusive upper bound; at or below the lowest bound the
 *   first class, above the last the last class;
 * - a concentration (air) below zero, or at zero where `zero_means_missing`, is no reading, as the service reads it;
 * - `gradient`: lower-inclusive flat bands, or stops to interpolate between when `interpolate` is true; on a
 *   `relative` scale the stops are positions 0 to 1 in the range the catalog publishes for the hour (`fallback_range`
 *   without one).
 * Pure functions over plain data: the page imports them, and the tests run them against the service's classification.
 */

const OPS = { lt: '<', lte: '<=', gt: '>', gte: '>=' };
const CMP = { lt: (a, b) => a < b, lte: (a, b) => a <= b, gt: (a, b) => a > b, gte: (a, b) => a >= b };

/** The colour the scale gives missing data (grey when the scale names none). */
export function noDataColor(scale) {
  return scale.no_data_color ?? '#BDBDBD';
}

/** The field a single-field scale reads. */
export function scaleField(scale) {
  return scale.fields[0];
}

/** The range stops of a relative scale map onto: the published one, else the scale's fallback. */
export function effectiveRange(scale, range) {
  if (!scale.relative) return undefined;
  return range && Number.isFinite(range.min) && Number.isFinite(range.max) && range.max > range.min ? range : scale.fallback_range;
}

/** Stop positions of a gradient scale in the field's unit. */
function stops(scale, range) {
  const r = effectiveRange(scale, range);
  return scale.classes.map((c) => (r ? r.min + c.bounds.from * (r.max - r.min) : c.bounds.from));
}

/** Classes of a bounds scale from lowest to highest. */
function byBounds(scale) {
  return [...scale.classes].sort((a, b) => a.bounds.from - b.bounds.from);
}

const num = (field) => ['to-number', ['get', field]];
const has = (field) => ['has', field];

/** A MapLibre boolean expression for one `when` rule. */
function ruleExpression(when) {
  const [join, tests] = when.all ? ['all', when.all] : ['any', when.any];
  return [join, ...tests.map((t) => {
    const op = Object.keys(OPS).find((k) => k in t);
    return ['all', has(t.field), [OPS[op], num(t.field), t[op]]];
  })];
}

/** The per-pollutant class expression of an index scale (0: contributes nothing). */
function pollutantClass(entry) {
  const v = num(entry.field);
  // No reading: the field absent, NO2 at zero or below, a negative concentration.
  const missing = ['any', ['!', has(entry.field)], entry.zero_means_missing ? ['<=', v, 0] : ['<', v, 0]];
  const cases = entry.bounds.flatMap((b, i) => [['<=', v, b], i + 1]);
  return ['case', missing, 0, ...cases, entry.bounds.length + 1];
}

/** The MapLibre `fill-color` expression of a scale (`range`: the hour's published range, for relative scales). */
export function colorExpression(scale, range) {
  const none = noDataColor(scale);
  if (scale.thresholds) {
    const worst = ['max', ...Object.values(scale.thresholds).map(pollutantClass)];
    const top = Math.max(...scale.classes.map((c) => c.value));
    const clamped = ['min', worst, top];
    return ['match', clamped, ...scale.classes.flatMap((c) => [c.value, c.color]), none];
  }
  if (scale.classes.some((c) => c.when)) {
    const ordered = [...scale.classes].sort((a, b) => b.value - a.value);
    return ['case', ...ordered.flatMap((c) => [ruleExpression(c.when), c.color]), none];
  }
  const field = scaleField(scale);
  const v = num(field);
  const missing = ['any', ['!', has(field)], ...(scale.zero_means_missing ? [['<=', v, 0]] : scale.metric === 'air' ? [['<', v, 0]] : [])];
  if (scale.kind === 'gradient') {
    const at = stops(scale, range);
    const colors = scale.classes.map((c) => c.color);
    if (scale.interpolate && colors.length > 1) {
      return ['case', missing, none, ['interpolate', ['linear'], v, ...at.flatMap((s, i) => [s, colors[i]])]];
    }
    return ['case', missing, none, ['step', v, colors[0], ...at.slice(1).flatMap((s, i) => [s, colors[i + 1]])]];
  }
  const classes = byBounds(scale);
  const cases = classes.slice(0, -1).flatMap((c) => [['<=', v, c.bounds.to], c.color]);
  return ['case', missing, none, ...cases, classes[classes.length - 1].color];
}

const present = (props, field) => props[field] !== undefined && props[field] !== null && Number.isFinite(Number(props[field]));

/**
 * The class of one feature's properties under a scale, as `colorExpression` colours it: `{label, color}` (with
 * `value` on numbered classes, `position` 0…1 on interpolated gradients); `{label: 'No data'}` when nothing applies.
 */
export function classify(scale, props, range) {
  const none = { label: 'No data', color: noDataColor(scale) };
  if (scale.thresholds) {
    let worst = 0;
    for (const entry of Object.values(scale.thresholds)) {
      if (!present(props, entry.field)) continue;
      const v = Number(props[entry.field]);
      if (entry.zero_means_missing ? v <= 0 : v < 0) continue;
      const i = entry.bounds.findIndex((b) => v <= b);
      worst = Math.max(worst, i === -1 ? entry.bounds.length + 1 : i + 1);
    }
    const top = Math.max(...scale.classes.map((c) => c.value));
    return worst === 0 ? none : scale.classes.find((c) => c.value === Math.min(worst, top)) ?? none;
  }
  if (scale.classes.some((c) => c.when)) {
    const holds = (t) => {
      const op = Object.keys(CMP).find((k) => k in t);
      return present(props, t.field) && CMP[op](Number(props[t.field]), t[op]);
    };
    const matching = scale.classes.filter((c) => (c.when.all ? c.when.all.every(holds) : c.when.any.some(holds)));
    return matching.length === 0 ? none : matching.reduce((a, b) => (b.value > a.value ? b : a));
  }
  const field = scaleField(scale);
  if (!present(props, field)) return none;
  const v = Number(props[field]);
  if (scale.zero_means_missing ? v <= 0 : scale.metric === 'air' && v < 0) return none;
  if (scale.kind === 'gradient') {
    const at = stops(scale, range);
    let i = 0;
    while (i + 1 < at.length && v >= at[i + 1]) i++;
    if (scale.interpolate) {
      const r = effectiveRange(scale, range);
      const position = r ? Math.min(1, Math.max(0, (v - r.min) / (r.max - r.min))) : undefined;
      return { ...scale.classes[i], position };
    }
    return scale.classes[i];
  }
  const classes = byBounds(scale);
  return classes.find((c) => c.bounds.to === null || v <= c.bounds.to) ?? classes[classes.length - 1];
}

/** Legend entries: one `{color, label, explain}` per class in display order, and the no-data colour last. */
export function legendEntries(scale) {
  const explain = (c) => [c.condition, c.meaning].filter(Boolean).join(' — ');
  return [...scale.classes.map((c) => ({ color: c.color, label: c.label, explain: explain(c) })), { color: noDataColor(scale), label: 'No data', noData: true }];
}
