/** Reverse search over the address index: the nearest registered address to a point. */
import { formatAddress } from '../geocode/address-parts.js';
import { nearDistanceM } from './house-numbers.js';
import { cellOf } from './register-index.js';
import type { AddressRow, RegisterQueries } from './register-queries.js';

/** How far reverse geocoding looks for a registered address, metres (the 3 × 3 cells around a point hold them all). */
const REVERSE_RADIUS_M = 30;

/** The nearest registered address within `REVERSE_RADIUS_M` of (lat, lon), in the area's first language. */
export function reverseLookup(queries: RegisterQueries, lat: number, lon: number): string | undefined {
  const centre = cellOf(lat, lon);
  const cells: number[] = [];
  for (const dr of [-1, 0, 1]) for (const dc of [-1, 0, 1]) cells.push(centre + dr * 1_048_576 + dc);
  let best: { row: AddressRow; d: number } | undefined;
  for (const row of queries.addressesIn(cells)) {
    const d = nearDistanceM({ lat, lon }, row);
    if (d <= REVERSE_RADIUS_M && (best === undefined || d < best.d)) best = { row, d };
  }
  if (best === undefined) return undefined;
  const { row } = best;
  return formatAddress({
    kind: 'address', street: JSON.parse(row.names) as string[], houseNumber: row.number, postcode: row.postcode,
    municipality: JSON.parse(row.towns) as string[], countryCode: 'be',
  });
}
