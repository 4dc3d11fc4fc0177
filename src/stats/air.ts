/**
 * Reference phase B of air: the air block from `AirHourly` and the calendar (interface spec "air block", docs/statistics.md).
 * Denominators are graded hours (hours whose class is 1–10); ungraded hours count nowhere. Good air is class 1–4
 * (IRCEL-CELINE BelAQI: below 5 the WHO short-term guideline values are met). The score uses WHO 2021 annual means.
 */
import { DatasetError } from '../errors.js';
import { BELAQI_LABELS, POLLUTANTS, type BelaqiLabel, type Pollutant } from '../classification/belaqi.js';
import { GOOD_MAX_CLASS } from './belaqi.js';
import { monthlyValues, type AirBlock, type PerPollutant } from './blocks.js';
import type { Calendar } from './calendar.js';
import { checkHours, type AirHourly } from './hourly-aggregates.js';
import { firstMaxIndex, firstMinIndex, meanOrNull, roundHalfUp, roundOrNull, sharePct } from './numeric.js';
import { scoreLabel, whoSubscore } from './scoring.js';

/** A city-centre reference for `benchmark`: mean good-air share (percent) over `locations` reference locations. */
export interface AirBenchmarkRef {
  readonly good_pct: number;
  readonly locations: number;
}

/** Counts over the year, all at full precision (index conventions: class k at k − 1, month m at m − 1). */
interface AirTally {
  graded: number;
  classHours: number[];
  dayGraded: number;
  dayGood: number;
  nightGraded: number;
  nightGood: number;
  monthGraded: number[];
  monthGood: number[];
  dominantHours: number[];
  concSum: number[];
  concCount: number[];
}

/** The air block, or `undefined` when no hour is graded (the caller reports that as an error). */
export function computeAirBlock(air: AirHourly, calendar: Calendar, benchmark?: AirBenchmarkRef): AirBlock | undefined {
  checkHours(calendar, air.cls.length, 'Air aggregates');
  for (const p of POLLUTANTS) {
    const { meanClass, concSum, count } = air.pollutants[p];
    for (const a of [meanClass, concSum, count]) checkHours(calendar, a.length, `Air aggregates (${p})`);
  }
  const t = tallyAir(air, calendar);
  if (t.graded === 0) return undefined;

  const annualMean = POLLUTANTS.map((_, i) => meanOrNull(t.concSum[i], t.concCount[i]));
  const subscores = annualMean.map((mean, i) =>
    mean === null ? null : roundHalfUp(whoSubscore(POLLUTANTS[i], mean), 1));
  const scoreIndex = firstMinIndex(subscores);
  if (scoreIndex < 0) throw new DatasetError('Air aggregates grade hours but hold no pollutant concentration.');
  const score = subscores[scoreIndex] as number;
  const limiting = POLLUTANTS.filter((_, i) => subscores[i] === score);

  const good = t.classHours.slice(0, GOOD_MAX_CLASS).reduce((a, b) => a + b, 0);
  const goodPct = (good * 100) / t.graded;
  const pct = (count: number): number => roundHalfUp((count * 100) / t.graded, 1);
  const band = (from: number, to: number): number => pct(t.classHours.slice(from - 1, to).reduce((a, b) => a + b, 0));
  const monthly = t.monthGood.map((g, m) => sharePct(g, t.monthGraded[m]));
  const publishedMonthly = monthly.map((v) => roundOrNull(v, 1));

  const distribution = {} as Record<BelaqiLabel, number>;
  BELAQI_LABELS.forEach((label, k) => (distribution[label] = pct(t.classHours[k])));

  return {
    rating: roundHalfUp(goodPct / 10, 1),
    score,
    label: scoreLabel(score),
    hours_graded: t.graded,
    annual_mean_ugm3: perPollutant((i) => roundOrNull(annualMean[i], 1)),
    pollutant_scores: perPollutant((i) => subscores[i]),
    limiting_pollutants: limiting,
    limiting_pollutant: limiting[0],
    distribution_pct: distribution,
    grouped_pct: { g12: band(1, 2), g34: band(3, 4), g56: band(5, 6), g710: band(7, 10) },
    good_pct: roundHalfUp(goodPct, 1),
    day_good_pct: roundOrNull(sharePct(t.dayGood, t.dayGraded), 1),
    night_good_pct: roundOrNull(sharePct(t.nightGood, t.nightGraded), 1),
    monthly_good_pct: monthlyValues(monthly, 1),
    best_month: firstMaxIndex(publishedMonthly) + 1,
    worst_month: firstMinIndex(publishedMonthly) + 1,
    dominant_pollutant: POLLUTANTS[firstMaxIndex(t.dominantHours)],
    pollutant_share_pct: perPollutant((i) => pct(t.dominantHours[i])),
    ...(benchmark === undefined ? {} : { benchmark: benchmarkBlock(goodPct, benchmark) }),
  };
}

/**
 * The pollutant with the highest mean sub-index at hour `h` among pollutants with data, as an index into `POLLUTANTS`;
 * ties go to the earlier pollutant (NO2, PM2.5, PM10). −1 when no pollutant has data.
 */
function dominantPollutantIndex(air: AirHourly, h: number): number {
  let best = -1;
  let bestMean = -Infinity;
  POLLUTANTS.forEach((p, i) => {
    const mean = air.pollutants[p].meanClass[h];
    if (!Number.isNaN(mean) && mean > bestMean) {
      best = i;
      bestMean = mean;
    }
  });
  return best;
}

/** One pass over the hours: class histogram, day/night and monthly good counts, dominance and concentration totals. */
function tallyAir(air: AirHourly, calendar: Calendar): AirTally {
  const t: AirTally = {
    graded: 0, classHours: new Array<number>(10).fill(0),
    dayGraded: 0, dayGood: 0, nightGraded: 0, nightGood: 0,
    monthGraded: new Array<number>(12).fill(0), monthGood: new Array<number>(12).fill(0),
    dominantHours: [0, 0, 0], concSum: [0, 0, 0], concCount: [0, 0, 0],
  };
  for (let h = 0; h < calendar.hours; h++) {
    POLLUTANTS.forEach((p, i) => {
      t.concSum[i] += air.pollutants[p].concSum[h];
      t.concCount[i] += air.pollutants[p].count[h];
    });
    const cls = air.cls[h];
    if (cls === 0) continue;
    const good = cls <= GOOD_MAX_CLASS ? 1 : 0;
    t.graded += 1;
    t.classHours[cls - 1] += 1;
    if (calendar.isDay[h] === 1) {
      t.dayGraded += 1;
      t.dayGood += good;
    } else {
      t.nightGraded += 1;
      t.nightGood += good;
    }
    t.monthGraded[calendar.month[h] - 1] += 1;
    t.monthGood[calendar.month[h] - 1] += good;
    const dominant = dominantPollutantIndex(air, h);
    if (dominant >= 0) t.dominantHours[dominant] += 1;
  }
  return t;
}

/** Builds a per-pollutant object in `POLLUTANTS` order from a function of the pollutant index. */
export function perPollutant<T>(value: (i: number) => T): PerPollutant<T> {
  return { no2: value(0), pm25: value(1), pm10: value(2) } satisfies Record<Pollutant, T>;
}

/** The benchmark object: the reference share, the difference (location minus reference) and the reference size. */
export function benchmarkBlock(goodPct: number, ref: AirBenchmarkRef): AirBlock['benchmark'] {
  if (!Number.isFinite(ref.good_pct) || ref.good_pct < 0 || ref.good_pct > 100) {
    throw new DatasetError(`Air benchmark share must be a percentage, got ${ref.good_pct}.`);
  }
  if (!Number.isInteger(ref.locations) || ref.locations < 1) {
    throw new DatasetError(`Air benchmark needs at least one reference location, got ${ref.locations}.`);
  }
  return {
    city_good_pct: roundHalfUp(ref.good_pct, 1),
    difference_pct: roundHalfUp(goodPct - ref.good_pct, 1),
    locations: ref.locations,
  };
}
