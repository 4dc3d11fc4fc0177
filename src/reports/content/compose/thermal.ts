/** The thermal comfort section: UTCI bands, seasonal shares, heat stress, two charts. */
import { MONTH_KEYS } from '../../../stats/blocks.js';
import { SEASONS } from '../../../stats/calendar.js';
import type { FactRow, Section } from '../document.js';
import { columnChart, niceAxis } from '../figures/charts.js';
import { utciClassColor, utciColor } from '../figures/scale-colors.js';
import { THEME } from '../theme.js';
import { LAYOUT, orDash, type ComposeContext } from './context.js';

/** UTCI class of "no thermal stress" (9 to 26 °C): the colour of comfortable shares. */
const COMFORTABLE_CLASS = 6;

/** The thermal section; undefined when the report has no thermal block. */
export function thermalSection(ctx: ComposeContext): Section | undefined {
  const { c, t, f } = ctx;
  const h = c.statistics.thermal;
  if (h === undefined) return undefined;
  const deg = (v: number) => f.unit(v, 1, '°C');
  const signedDeg = (v: number) => `${v > 0 ? '+' : ''}${deg(v)}`;
  const rows: FactRow[] = [
    { label: t.thermal.rating, value: `${f.num(h.rating, 1)} / 10`, note: t.thermal.ratingNote(t.seasons[h.rating_limiting_season]) },
    {
      label: t.thermal.score,
      value: `${f.num(h.score, 1)} / 10, ${t.scoreLabels[h.label]}`,
      note: t.thermal.scoreNote(t.seasons[h.limiting_season]),
    },
    { label: t.thermal.summerDay, value: orDash(h.summer_day_comfort_pct, (v) => f.pct(v)) },
    { label: t.thermal.heatDays, value: f.int(h.strong_heat_stress_days), note: t.thermal.heatDaysNote },
    { label: t.thermal.tropicalNights, value: f.int(h.tropical_nights), note: t.thermal.tropicalNightsNote },
    {
      label: t.thermal.summerNight,
      value: orDash(h.summer_night_mean_utci_c, deg),
      ...(h.summer_night_vs_city_c !== undefined ? { note: t.thermal.vsCity(signedDeg(h.summer_night_vs_city_c)) } : {}),
    },
    { label: t.thermal.comfortAll, value: f.pct(h.comfort_pct) },
    { label: t.thermal.meanMinMax, value: `${deg(h.mean_utci_c)} / ${deg(h.min_utci_c)} / ${deg(h.max_utci_c)}` },
  ];
  const seasonal = columnChart({
    width: LAYOUT.half,
    height: 150,
    categories: SEASONS.map((s) => ({
      label: t.seasons[s],
      bars: [
        { value: h.seasonal_comfort_pct[s], color: utciClassColor(COMFORTABLE_CLASS) },
        { value: h.seasonal_acceptable_pct[s], color: THEME.bar },
      ],
    })),
    min: 0, max: 100, step: 25,
    tick: (v) => f.pct(v, 0),
    legend: [
      { label: t.thermal.comfortable, color: utciClassColor(COMFORTABLE_CLASS) },
      { label: t.thermal.acceptable, color: THEME.bar },
    ],
    label: t.thermal.seasonalTitle,
  });
  const monthlyValues = MONTH_KEYS.map((m) => h.monthly_mean_utci_c[m]);
  const axis = niceAxis(monthlyValues.filter((v): v is number => v !== null), 4, false);
  const monthly = columnChart({
    width: LAYOUT.half,
    height: 150,
    categories: MONTH_KEYS.map((m, i) => {
      const v = monthlyValues[i];
      return { label: f.month(Number(m), 'short'), bars: [{ value: v, color: v === null ? THEME.bar : utciColor(v) }] };
    }),
    ...axis,
    tick: (v) => f.short(v, 1),
    label: t.thermal.monthlyTitle,
  });
  return {
    id: 'thermal',
    title: t.metricNames.thermal,
    newPage: true,
    blocks: [
      { kind: 'paragraph', text: t.thermal.intro, style: 'lead' },
      { kind: 'facts', rows },
      {
        kind: 'figures',
        figures: [
          { title: t.thermal.seasonalTitle, svg: seasonal, caption: t.thermal.seasonalCaption },
          { title: t.thermal.monthlyTitle, svg: monthly, caption: t.thermal.monthlyCaption },
        ],
      },
      { kind: 'paragraph', text: t.thermal.explain, style: 'note' },
    ],
  };
}
