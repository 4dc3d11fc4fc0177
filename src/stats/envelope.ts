/**
 * Assembles the statistics envelope of `GET /historical/stats` (interface spec, "Statistics envelope"): `city`,
 * `location`, `meta` and the requested blocks, keys in the spec's table order. Pure assembly: deciding errors (a
 * requested metric the dataset lacks, a block without valid hours) is the caller's job.
 */
import type { StatMetric } from '../cities/city-types.js';
import type { AirBlock, StatBlocks, ThermalBlock, WindBlock } from './blocks.js';
import { roundHalfUp } from './numeric.js';

/** The `city` member of data responses (interface spec, CityRef). */
export interface CityRef {
  readonly id: string;
  readonly name: string;
  /** ISO 3166-1 alpha-2. */
  readonly country: string;
}

/** How the cells were sampled; `distanceM` only for `nearest_outdoor`, `radiusM` whenever the client supplied one. */
export type SamplingInfo =
  | { readonly sampling: 'point'; readonly radiusM?: number }
  | { readonly sampling: 'nearest_outdoor'; readonly distanceM: number }
  | { readonly sampling: 'radius'; readonly radiusM: number };

/** Everything the envelope reports. */
export interface EnvelopeArgs {
  /** Absent for nationwide answers. */
  readonly city?: CityRef;
  /** Address as geocoded; `null` for raw coordinates. */
  readonly address: string | null;
  readonly lat: number;
  readonly lon: number;
  readonly dataset: string;
  readonly referenceYear: number;
  readonly sampling: SamplingInfo;
  readonly nCells: number;
  /** Hourly records in the reference year. */
  readonly hours: number;
  /** ISO 8601 UTC instant the statistics were computed. */
  readonly generatedUtc: string;
  /** Metrics the client asked for (any order); a block is emitted when requested and present in `blocks`. */
  readonly requested: readonly StatMetric[];
  readonly blocks: StatBlocks;
}

/** The `meta` member. */
export interface EnvelopeMeta {
  readonly dataset: string;
  readonly reference_year: number;
  readonly sampling: SamplingInfo['sampling'];
  readonly distance_m?: number;
  readonly radius_m?: number;
  readonly n_cells: number;
  readonly hours: number;
  readonly generated_utc: string;
  readonly metrics: readonly StatMetric[];
}

/** The statistics envelope. */
export interface StatsEnvelope {
  readonly city?: CityRef;
  readonly location: { readonly address: string | null; readonly lat: number; readonly lon: number };
  readonly meta: EnvelopeMeta;
  readonly air?: AirBlock;
  readonly wind?: WindBlock;
  readonly thermal?: ThermalBlock;
}

/** Block order of the envelope and of `meta.metrics` (the spec's order), whatever order the client used. */
const BLOCK_ORDER: readonly StatMetric[] = ['air', 'wind', 'thermal'];

/** Builds the envelope; coordinates are rounded to 5 decimals and `distance_m` to 2 (centimetres). */
export function buildEnvelope(args: EnvelopeArgs): StatsEnvelope {
  const returned = BLOCK_ORDER.filter((m) => args.requested.includes(m) && args.blocks[m] !== undefined);
  const s = args.sampling;
  const meta: EnvelopeMeta = {
    dataset: args.dataset,
    reference_year: args.referenceYear,
    sampling: s.sampling,
    ...(s.sampling === 'nearest_outdoor' ? { distance_m: roundHalfUp(s.distanceM, 2) } : {}),
    ...(s.sampling !== 'nearest_outdoor' && s.radiusM !== undefined ? { radius_m: s.radiusM } : {}),
    n_cells: args.nCells,
    hours: args.hours,
    generated_utc: args.generatedUtc,
    metrics: returned,
  };
  const envelope: Record<string, unknown> = {};
  if (args.city) envelope.city = { id: args.city.id, name: args.city.name, country: args.city.country };
  envelope.location = { address: args.address, lat: roundHalfUp(args.lat, 5), lon: roundHalfUp(args.lon, 5) };
  envelope.meta = meta;
  for (const m of returned) envelope[m] = args.blocks[m];
  return envelope as unknown as StatsEnvelope;
}
