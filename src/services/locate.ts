/**
 * Turns the location parameters of a data request (an address, or lat and lon) into rounded coordinates and the
 * coverage that answers there. Shared by every location-based product (statistics, live and forecast records,
 * reports), so an address resolves the same way everywhere (docs/geocoding.md):
 *
 * 1. Only the geocoder's top result is used, and only when its relevance is at least `RELEVANCE_FLOOR`; otherwise the
 *    address was not recognised (422 `outside_coverage`). The geocoder has already dropped every result that
 *    contradicts the address (address-match.ts).
 * 2. A result outside every covered area is outside coverage, as for coordinates.
 * 3. A result that is not a house (a street, standing for a house number the geocoder does not hold or for an
 *    address without one; a municipality centre, standing for a street it does not hold or for a bare municipality
 *    name) is used only where the nationwide dataset answers: there one cell spans kilometres and the street's or
 *    the municipality's point stands for it. Where a street-level dataset would answer, the statistics of another
 *    point would be presented for a house the address named (or did not name), so the address was not found at
 *    house level (422 `outside_coverage`).
 */
import type { CityConfig, Coverage } from '../cities/city-types.js';
import { NATIONWIDE } from '../cities/catalog.js';
import { resolveCoverage } from '../cities/coverage.js';
import { OutsideCoverageError, ServiceError, UpstreamError, ValidationError } from '../errors.js';
import { isStreetLevel } from '../geocode/address-parts.js';
import type { GeocodeHit, Geocoder } from '../geocode/geocoder.js';
import { roundCoord } from '../geo/round.js';
import { quoteInput } from '../util/quote-input.js';

/** Lowest relevance of the top geocoding result for an address to be answered (rule 1 above). */
export const RELEVANCE_FLOOR = 0.6;

/** The location parameters as received (already type-checked by the route schema). */
export interface LocationParams {
  readonly address?: string | undefined;
  readonly lat?: number | undefined;
  readonly lon?: number | undefined;
}

/** A resolved location inside a covered area. */
export interface Located {
  /** The geocoded address for address queries; null for raw coordinates. */
  readonly address: string | null;
  /** Rounded to 5 decimals. */
  readonly lat: number;
  readonly lon: number;
  readonly coverage: Exclude<Coverage, { kind: 'outside' }>;
}

/** The spec's combination rules: an address, or both lat and lon, never both forms and never only one coordinate. */
export function checkLocationParams(params: LocationParams): void {
  const hasAddress = params.address !== undefined;
  const hasLat = params.lat !== undefined;
  const hasLon = params.lon !== undefined;
  if (hasAddress && (hasLat || hasLon)) {
    throw new ValidationError('Give either address or lat and lon, not both.');
  }
  if (hasLat !== hasLon) throw new ValidationError(`'${hasLat ? 'lon' : 'lat'}' is required together with '${hasLat ? 'lat' : 'lon'}'.`);
  if (!hasAddress && !hasLat) throw new ValidationError('A location is required: give address, or lat and lon.');
  if (hasAddress && params.address!.trim() === '') throw new ValidationError(`'address' must not be blank.`);
}

/**
 * True where a street- or area-level geocoding result may stand for an address: where the nationwide dataset answers
 * (rule 3 above). The rule is on the answering dataset, not on cities: a city answered from the nationwide dataset
 * accepts it, a street-level zone does not.
 */
export function acceptsStreetOrAreaResults(coverage: Exclude<Coverage, { kind: 'outside' }>): boolean {
  return coverage.dataset === NATIONWIDE.dataset;
}

/** Geocodes an address to its top result at or above the floor; any failure of the geocoder is an upstream error. */
async function geocodeTop(geocoder: Geocoder, address: string): Promise<GeocodeHit> {
  let results: Awaited<ReturnType<Geocoder['search']>>;
  try {
    results = await geocoder.search(address, 1);
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'validation_error') throw err;
    throw new UpstreamError('The geocoder failed; retrying is reasonable.', { cause: err });
  }
  const top = results[0];
  if (!top) {
    throw new OutsideCoverageError(`The address ${quoteInput(address)} was not recognised, so it could not be resolved inside a covered area.`);
  }
  if (!(top.relevance >= RELEVANCE_FLOOR)) {
    throw new OutsideCoverageError(
      `The address ${quoteInput(address)} was not recognised: its closest match, ${quoteInput(top.address)}, has relevance ` +
        `${top.relevance}, below the ${RELEVANCE_FLOOR} an answer needs (GET /v1/geocode lists the candidates).`,
    );
  }
  return top;
}

/** Resolves the location; outside every covered area (or an unresolvable address) is an OutsideCoverageError. */
export async function locate(params: LocationParams, geocoder: Geocoder): Promise<Located> {
  checkLocationParams(params);
  const address = params.address?.trim();
  const point = address !== undefined ? await geocodeTop(geocoder, address) : undefined;
  const lat = roundCoord(point ? point.lat : params.lat!);
  const lon = roundCoord(point ? point.lon : params.lon!);
  const coverage = resolveCoverage(lat, lon);
  if (coverage.kind === 'outside') {
    throw new OutsideCoverageError(
      point
        ? `The address ${quoteInput(address!)} resolves to ${quoteInput(point.address)}, outside every covered area.`
        : `The location ${lat}, ${lon} is outside every covered area (Belgium).`,
    );
  }
  if (point && point.kind !== 'address' && !acceptsStreetOrAreaResults(coverage)) {
    throw new OutsideCoverageError(
      isStreetLevel(point.kind)
        ? `The address ${quoteInput(address!)} was not found at house level: only the street ${quoteInput(point.address)} ` +
            `was found (the house number is not registered, nor one within 25 m of its place, or none was given), and ` +
            `where street-level data answer an address must name a house the geocoder knows.`
        : `The address ${quoteInput(address!)} was not recognised at street level: only the area ${quoteInput(point.address)} ` +
            `was found, and where street-level data answer an address must name a house the geocoder knows.`,
    );
  }
  return { address: point ? point.address : null, lat, lon, coverage };
}
