/** The first sections: where the report looks and how it sampled, then the three ratings at a glance. */
import type { FactRow, RatingCard, Section } from '../document.js';
import { distance, orDash, pollutantSymbol, type ComposeContext } from './context.js';

/** The location section. */
export function locationSection(ctx: ComposeContext): Section {
  const { c, t, f } = ctx;
  const l = c.location;
  const cell = distance(f, l.resolutionM);
  let sampling: string;
  if (l.containingCell) sampling = t.location.samplingContaining(cell, distance(f, c.request.radiusM));
  else if (l.sampling === 'radius') sampling = t.location.samplingRadius(f.int(l.nCells), distance(f, l.radiusM ?? c.request.radiusM));
  else if (l.sampling === 'nearest_outdoor') sampling = t.location.samplingNearest(f.int(l.nCells), distance(f, l.distanceM ?? 0));
  else sampling = t.location.samplingPoint;
  const rows: FactRow[] = [
    { label: t.location.address, value: l.address },
    { label: t.location.coordinates, value: t.location.coordinatesValue(f.num(l.lat, 5), f.num(l.lon, 5)) },
    {
      label: t.location.area,
      value: l.city === null ? t.location.nationwideArea
        : l.containingCell ? t.location.cityNationwideArea(l.city.name) : t.location.cityArea(l.city.name),
    },
    { label: t.location.dataset, value: t.location.datasetValue(l.dataset, cell) },
    { label: t.location.sampling, value: sampling },
    { label: t.location.period, value: t.location.periodValue(String(l.referenceYear), f.int(l.hours)) },
  ];
  return { id: 'location', title: t.location.title, newPage: false, blocks: [{ kind: 'facts', rows }] };
}

/** The summary section: one card per metric in the report, then why any metric is missing. */
export function summarySection(ctx: ComposeContext): Section {
  const { c, t, f } = ctx;
  const s = c.statistics;
  const cards: RatingCard[] = [];
  const card = (metric: RatingCard['metric'], block: { rating: number; score: number; label: keyof typeof t.scoreLabels }, text: string) =>
    cards.push({
      metric,
      title: t.metricNames[metric],
      rating: f.num(block.rating, 1),
      outOf: t.summary.outOf,
      score: t.summary.scoreLine(f.num(block.score, 1), t.scoreLabels[block.label]),
      text,
    });
  if (s.air) card('air', s.air, t.summary.air(f.pct(s.air.good_pct), pollutantSymbol(s.air.limiting_pollutant)));
  if (s.wind) card('wind', s.wind, t.summary.wind(f.pct(s.wind.calm_pct), f.unit(s.wind.mean_ucomfort_ms, 2, 'm/s')));
  if (s.thermal) {
    card('thermal', s.thermal, t.summary.thermal(orDash(s.thermal.summer_day_comfort_pct, (v) => f.pct(v)), f.int(s.thermal.strong_heat_stress_days)));
  }
  const absent = c.absent.map(({ metric, reason }) => ({
    kind: 'paragraph' as const,
    style: 'note' as const,
    text: t.summary.absent(t.summary.absentNames[metric], reason === 'not_in_scope' ? t.summary.notInScope : t.summary.notModelled),
  }));
  return {
    id: 'summary',
    title: t.summary.title,
    newPage: false,
    blocks: [{ kind: 'cards', cards }, ...absent],
  };
}

/** The method and sources section. */
export function methodSection(ctx: ComposeContext): Section {
  const { c, t, f } = ctx;
  return {
    id: 'method',
    title: t.method.title,
    newPage: true,
    blocks: [
      { kind: 'paragraph', text: t.summary.howToRead },
      { kind: 'list', items: t.method.items },
      {
        kind: 'paragraph',
        text: t.method.data(c.location.dataset, String(c.location.referenceYear), f.dateTime(c.statistics.generatedUtc)),
      },
      { kind: 'facts', rows: [{ label: t.method.attribution, value: c.attribution.catalogue, note: c.attribution.dataset }] },
      { kind: 'paragraph', text: t.method.disclaimer, style: 'note' },
    ],
  };
}
