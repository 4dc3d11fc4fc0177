/**
 * Turns the location parameters of a data request (an address, or lat and lon) into rounded coordinates and the
 * coverage that answers there. Shared by every location-based product.
 */
import type { CityConfig } from '../cities/city-types.js';
import { resolveCoverage } from '../cities/coverage.js';
import { OutsideCoverageError, ServiceError, UpstreamError, ValidationError } from '../errors.js';
import type { Geocoder } from '../geocode/geocoder.js';
import { roundCoord } from '../geo/round.js';

/** The location parameters as received (already type-checked by the route schema). */
export interface LocationParams {
  readonly address?: string;
  readonly lat?: number;
  readonly lon?: number;
}

/** A resolved location inside a covered area. */
export interface Located {
  /** The geocoded address for address queries; null for raw coordinates. */
  readonly address: string | null;
  /** Rounded to 5 decimals. */
  readonly lat: number;
  readonly lon: number;
  readonly coverage: { readonly kind: 'city'; readonly city: CityConfig; readonly dataset: string } | {
    readonly kind: 'nationwide';
    readonly dataset: 'belgium_lowres';
  };
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

/** Geocodes an address to its top result; any failure of the geocoder is an upstream error (a retry is reasonable). */
async function geocodeTop(geocoder: Geocoder, address: string): Promise<{ address: string; lat: number; lon: number }> {
  let results: Awaited<ReturnType<Geocoder['search']>>;
  try {
    results = await geocoder.search(address, 1);
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'validation_error') throw err;
    throw new UpstreamError('The geocoder failed; retrying is reasonable.', { cause: err });
  }
  const top = results[0];
  if (!top) throw new OutsideCoverageError(`The address '${address}' could not be resolved inside a covered area.`);
  return top;
}

/** Resolves the location; outside every covered area (or an unresolvable address) is an OutsideCoverageError. */
export async function locate(params: LocationParams, geocoder: Geocoder): Promise<Located> {
  checkLocationParams(params);
  const point = params.address !== undefined ? await geocodeTop(geocoder, params.address.trim()) : undefined;
  const lat = roundCoord(point ? point.lat : params.lat!);
  const lon = roundCoord(point ? point.lon : params.lon!);
  const coverage = resolveCoverage(lat, lon);
  if (coverage.kind === 'outside') {
    throw new OutsideCoverageError(
      point
        ? `The address '${params.address!.trim()}' resolves to a place outside every covered area.`
        : `The location ${lat}, ${lon} is outside every covered area (Belgium).`,
    );
  }
  return { address: point ? point.address : null, lat, lon, coverage };
}
