/** The wind comfort section: the hourly classes, the exceedance score and the windiest hour, two charts. */
import { WIND_CLASS_LABELS } from '../../../classification/wind.js';
import { MONTH_KEYS } from '../../../stats/blocks.js';
import { WIND_ALLOWANCE_BP, WIND_EXCEEDANCE_KEYS } from '../../../stats/scoring.js';
import type { FactRow, Section } from '../document.js';
import { barChart, columnChart, niceAxis } from '../figures/charts.js';
import { windColor } from '../figures/scale-colors.js';
import { THEME } from '../theme.js';
import { LAYOUT, orDash, type ComposeContext } from './context.js';

/** The wind section; undefined when the report has no wind block. */
export function windSection(ctx: ComposeContext): Section | undefined {
  const { c, t, f } = ctx;
  const w = c.statistics.wind;
  if (w === undefined) return undefined;
  const ms = (v: number) => f.unit(v, 2, 'm/s');
  const rows: FactRow[] = [
    { label: t.wind.rating, value: `${f.num(w.rating, 1)} / 10`, note: t.wind.ratingNote },
    { label: t.wind.score, value: `${f.num(w.score, 1)} / 10, ${t.scoreLabels[w.label]}`, note: t.wind.scoreNote },
    { label: t.wind.calm, value: f.pct(w.calm_pct) },
    { label: t.wind.mean, value: ms(w.mean_ucomfort_ms) },
    { label: t.wind.p95, value: ms(w.p95_ucomfort_ms) },
    { label: t.wind.maxGust, value: orDash(w.max_gust_ms, ms) },
    { label: t.wind.worst, value: t.wind.worstValue(ms(w.worst_moment_ms), f.int(w.worst_moment_hours)) },
    ...WIND_EXCEEDANCE_KEYS.map((key, k) => {
      const allowance = WIND_ALLOWANCE_BP[k] / 100;
      return {
        label: t.wind.thresholds[key],
        value: f.pct(w.exceedance_pct[key]),
        note: t.wind.allowance(f.pct(allowance, allowance < 1 ? 2 : 0)),
      };
    }),
  ];
  const monthlyValues = MONTH_KEYS.map((m) => w.monthly_mean_ucomfort_ms[m]);
  const axis = niceAxis(monthlyValues.filter((v): v is number => v !== null), 4);
  const monthly = columnChart({
    width: LAYOUT.half,
    height: 150,
    categories: MONTH_KEYS.map((m, i) => ({ label: f.month(Number(m), 'short'), bars: [{ value: monthlyValues[i], color: THEME.bar }] })),
    ...axis,
    tick: (v) => f.short(v, 1),
    label: t.wind.monthlyTitle,
  });
  const distribution = barChart({
    width: LAYOUT.half,
    rows: WIND_CLASS_LABELS.map((label, i) => ({
      label: t.windClasses[i],
      value: w.distribution_pct[label],
      valueText: f.pct(w.distribution_pct[label]),
      color: windColor(i + 1),
    })),
    label: t.wind.distributionTitle,
    labelWidth: 84,
  });
  return {
    id: 'wind',
    title: t.metricNames.wind,
    newPage: true,
    blocks: [
      { kind: 'paragraph', text: t.wind.intro, style: 'lead' },
      { kind: 'facts', rows },
      {
        kind: 'figures',
        figures: [
          { title: t.wind.distributionTitle, svg: distribution, caption: t.wind.distributionCaption },
          { title: t.wind.monthlyTitle, svg: monthly, caption: t.wind.monthlyCaption },
        ],
      },
      { kind: 'paragraph', text: t.wind.explain, style: 'note' },
    ],
  };
}
