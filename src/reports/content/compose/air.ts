/** The air quality section: what the BelAQI grading and the WHO-anchored score say, key figures and two charts. */
import { BELAQI_LABELS, POLLUTANTS } from '../../../classification/belaqi.js';
import { MONTH_KEYS } from '../../../stats/blocks.js';
import { WHO_LADDERS } from '../../../stats/scoring.js';
import type { FactRow, Section } from '../document.js';
import { barChart, columnChart } from '../figures/charts.js';
import { belaqiColor } from '../figures/scale-colors.js';
import { THEME } from '../theme.js';
import { LAYOUT, orDash, pollutantSymbol, type ComposeContext } from './context.js';

/** EU annual limit values, µg/m3 (Directive 2008/50/EC: NO2 40, PM10 40, PM2.5 stage 2 20). */
const EU_ANNUAL_LIMITS = Object.freeze({ no2: 40, pm25: 20, pm10: 40 });

/** The air section; undefined when the report has no air block. */
export function airSection(ctx: ComposeContext): Section | undefined {
  const { c, t, f } = ctx;
  const a = c.statistics.air;
  if (a === undefined) return undefined;
  const ug = (v: number) => f.unit(v, 1, 'µg/m³');
  const rows: FactRow[] = [
    { label: t.air.rating, value: `${f.num(a.rating, 1)} / 10`, note: t.air.ratingNote(f.pct(a.good_pct)) },
    { label: t.air.score, value: `${f.num(a.score, 1)} / 10, ${t.scoreLabels[a.label]}`, note: t.air.scoreNote },
    ...POLLUTANTS.map((p) => ({
      label: t.air.annualMean(pollutantSymbol(p)),
      value: a.annual_mean_ugm3[p] === null ? t.air.noData : ug(a.annual_mean_ugm3[p]),
      note: t.air.meanNote(f.short(WHO_LADDERS[p][0][0], 1), f.short(EU_ANNUAL_LIMITS[p], 1), orDash(a.pollutant_scores[p], (s) => f.num(s, 1))),
    })),
    { label: t.air.limiting, value: a.limiting_pollutants.map(pollutantSymbol).join(', ') },
    {
      label: t.air.dominant,
      value: t.air.dominantValue(pollutantSymbol(a.dominant_pollutant), f.pct(a.pollutant_share_pct[a.dominant_pollutant])),
    },
    {
      label: t.air.dayNight,
      value: `${orDash(a.day_good_pct, (v) => f.pct(v))} / ${orDash(a.night_good_pct, (v) => f.pct(v))}`,
      note: t.air.dayNightNote,
    },
    { label: t.air.bestWorst, value: `${f.month(a.best_month, 'long')} / ${f.month(a.worst_month, 'long')}` },
    { label: t.air.graded, value: f.int(a.hours_graded) },
  ];
  if (a.benchmark) {
    const diff = a.benchmark.difference_pct;
    rows.push({
      label: t.air.benchmark,
      value: t.air.benchmarkValue(f.pct(a.benchmark.city_good_pct), `${diff > 0 ? '+' : ''}${f.num(diff, 1)}`),
    });
  }
  const monthly = columnChart({
    width: LAYOUT.half,
    height: 150,
    categories: MONTH_KEYS.map((m) => ({
      label: f.month(Number(m), 'short'),
      bars: [{ value: a.monthly_good_pct[m], color: THEME.bar }],
    })),
    min: 0, max: 100, step: 25,
    tick: (v) => f.pct(v, 0),
    label: t.air.monthlyTitle,
  });
  const distribution = barChart({
    width: LAYOUT.half,
    rows: BELAQI_LABELS.map((label, i) => ({
      label: `${i + 1}  ${t.belaqiLabels[i]}`,
      value: a.distribution_pct[label],
      valueText: f.pct(a.distribution_pct[label]),
      color: belaqiColor(i + 1),
    })),
    label: t.air.distributionTitle,
    labelWidth: 92,
  });
  return {
    id: 'air',
    title: t.metricNames.air,
    newPage: true,
    blocks: [
      { kind: 'paragraph', text: t.air.intro, style: 'lead' },
      { kind: 'facts', rows },
      {
        kind: 'figures',
        figures: [
          { title: t.air.monthlyTitle, svg: monthly, caption: t.air.monthlyCaption },
          { title: t.air.distributionTitle, svg: distribution, caption: t.air.distributionCaption },
        ],
      },
      { kind: 'paragraph', text: t.air.explain, style: 'note' },
    ],
  };
}
