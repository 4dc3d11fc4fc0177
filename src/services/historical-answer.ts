/**
 * What a historical answer at a located point is made of, decided from the catalogue's data alone (never from a city's
 * name): the compute request (the answering dataset, and the radius unless that dataset ignores it) and the blocks the
 * answer holds (what was asked or held, limited to what the covering city models and the dataset computed). Shared by
 * `GET /historical/stats` and `svc stats`, so both answer alike.
 */
import { ignoresRadius } from '../cities/catalog.js';
import type { CityConfig, Coverage, StatMetric } from '../cities/city-types.js';
import type { StatsRequest } from '../compute/compute-types.js';
import { ProductUnavailableError } from '../errors.js';

/** A location inside coverage, rounded to 5 decimals. */
export interface LocatedPoint {
  readonly lat: number;
  readonly lon: number;
  readonly coverage: Exclude<Coverage, { kind: 'outside' }>;
}

/** The covering city of a located point; undefined for nationwide answers. */
export function coveringCityOf(where: LocatedPoint): CityConfig | undefined {
  return where.coverage.kind === 'city' ? where.coverage.city : undefined;
}

/**
 * The compute request: the dataset that answers there, and the radius only when that dataset honours one — a
 * containing-cell dataset (`belgium_lowres`) always samples the cell containing the point (spec rule 5), also inside a
 * covered city it answers for.
 */
export function statsRequestAt(where: LocatedPoint, radius: number | undefined): StatsRequest {
  const dataset = where.coverage.dataset;
  return {
    dataset,
    lat: where.lat,
    lon: where.lon,
    ...(radius !== undefined && !ignoresRadius(dataset) ? { radius_m: radius } : {}),
  };
}

/**
 * The city's part of the metric choice, checkable before any work: every named metric must be one the covering city
 * models, and with none named the key must hold at least one it models. Nationwide answers pass. Throws
 * ProductUnavailableError (spec: a held metric the city does not model is 422 `product_unavailable`).
 */
export function checkCityMetrics(
  city: CityConfig | undefined, named: readonly StatMetric[] | undefined, held: readonly StatMetric[],
): void {
  if (city === undefined) return;
  const unmodelled = (named ?? []).filter((m) => !city.metrics.includes(m));
  if (unmodelled.length > 0) throw new ProductUnavailableError(`The city '${city.id}' does not model ${list(unmodelled)}.`);
  if (!(named ?? held).some((m) => city.metrics.includes(m))) {
    throw new ProductUnavailableError(`The city '${city.id}' models none of the metrics this API key holds.`);
  }
}

/** What `answerMetrics` decides from. */
export interface MetricChoice {
  readonly city: CityConfig | undefined;
  readonly dataset: string;
  /** Metrics the request named (canonical order); undefined when it named none. */
  readonly named: readonly StatMetric[] | undefined;
  /** Metrics the key holds (canonical order). */
  readonly held: readonly StatMetric[];
  /** Whether the computation produced the metric's block. */
  readonly computed: (metric: StatMetric) => boolean;
}

/**
 * The blocks of the answer, in canonical order. Named metrics must all be modelled by the city and computed from the
 * dataset; with none named, the held metrics that are. Nothing to answer, or a named metric missing, is a
 * ProductUnavailableError (spec: a held metric the city does not model is 422 `product_unavailable`).
 */
export function answerMetrics(choice: MetricChoice): StatMetric[] {
  const { city, dataset, named, held, computed } = choice;
  checkCityMetrics(city, named, held);
  const lacking = (named ?? []).filter((m) => !computed(m));
  if (lacking.length > 0) throw new ProductUnavailableError(`The dataset '${dataset}' does not model ${list(lacking)}.`);
  const metrics = (named ?? held).filter((m) => computed(m) && (city === undefined || city.metrics.includes(m)));
  if (metrics.length === 0) {
    throw new ProductUnavailableError(`The dataset '${dataset}' models none of the metrics this API key holds.`);
  }
  return metrics;
}

function list(metrics: readonly StatMetric[]): string {
  return metrics.map((m) => `'${m}'`).join(', ');
}
