/**
 * Coverage resolution (spec rules 4 and 5): inside a covered city's boundary the city's street-level dataset answers;
 * elsewhere in Belgium the nationwide dataset; everywhere else nothing. Both tests are strict point-in-polygon, so a
 * point exactly on a zone's edge falls to the nationwide dataset and one exactly on the national border is outside.
 *
 * The decision is made on the position rounded to 5 decimals (`roundCoord`), as every response reports it; callers
 * that already rounded get the same answer, and so do callers that did not.
 */
import { assertLonLat } from '../geo/crs.js';
import { inBelgium } from '../geo/belgium.js';
import { IndexedPolygon } from '../geo/polygon-index.js';
import { roundCoord } from '../geo/round.js';
import { CITIES, NATIONWIDE } from './catalog.js';
import type { CityConfig, Coverage } from './city-types.js';

/** Each city with its boundary prepared for repeated strict point-in-polygon tests. */
const CITY_AREAS: readonly { readonly city: CityConfig; readonly area: IndexedPolygon }[] = CITIES.map((city) => ({
  city,
  area: new IndexedPolygon([city.boundary.geometry.coordinates]),
}));

/** Rounds and validates a WGS 84 position; throws `ValidationError` for non-finite or out-of-range degrees. */
function roundedLonLat(lat: number, lon: number): [number, number] {
  assertLonLat(lon, lat);
  return [roundCoord(lon), roundCoord(lat)];
}

/** The covered city whose boundary strictly contains the position (geocode's `covered` and `city`), if any. */
export function coveringCity(lat: number, lon: number): CityConfig | undefined {
  const [x, y] = roundedLonLat(lat, lon);
  return CITY_AREAS.find(({ area }) => area.contains(x, y))?.city;
}

/** Which dataset answers at (lat, lon): a city's, the nationwide one, or none (outside coverage). */
export function resolveCoverage(lat: number, lon: number): Coverage {
  const [x, y] = roundedLonLat(lat, lon);
  const hit = CITY_AREAS.find(({ area }) => area.contains(x, y));
  if (hit) return { kind: 'city', city: hit.city, dataset: hit.city.dataset };
  if (inBelgium(x, y)) return { kind: 'nationwide', dataset: NATIONWIDE.dataset };
  return { kind: 'outside' };
}
