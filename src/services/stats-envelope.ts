/**
 * Assembles the statistics envelope (`city`, `location`, `meta`, then the blocks in the order air, wind, thermal) by
 * string concatenation: cached blocks are JSON text and go into the body as stored.
 */
import type { CityConfig, StatMetric } from '../cities/city-types.js';
import type { CachedStats } from './stats-cache.js';

/** Everything that goes into one envelope. */
export interface EnvelopeParts {
  /** The covering city; undefined for nationwide answers (no `city` member then). */
  readonly city: CityConfig | undefined;
  readonly address: string | null;
  readonly lat: number;
  readonly lon: number;
  readonly stats: CachedStats;
  /** Blocks to include, in canonical order; each must be present in `stats.blocks`. */
  readonly metrics: readonly StatMetric[];
}

/** The response body as JSON text. */
export function statsEnvelope(parts: EnvelopeParts): string {
  const members: string[] = [];
  if (parts.city !== undefined) {
    const { id, name, country } = parts.city;
    members.push(`"city":${JSON.stringify({ id, name, country })}`);
  }
  members.push(`"location":${JSON.stringify({ address: parts.address, lat: parts.lat, lon: parts.lon })}`);
  members.push(`"meta":${JSON.stringify({ ...parts.stats.meta, metrics: parts.metrics })}`);
  for (const metric of parts.metrics) {
    const block = parts.stats.blocks[metric];
    if (block !== undefined) members.push(`"${metric}":${block}`);
  }
  return `{${members.join(',')}}`;
}
