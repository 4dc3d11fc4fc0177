/**
 * Nearest-point lookup for reverse geocoding: a flatbush index over points projected to local metres, confirmed with
 * great-circle distances. The projection is equirectangular at Belgium's mid latitude; across Belgium (49.5–51.5° N)
 * its east-west scale is off by at most about 2.5 %, which the search radius margin absorbs.
 */
import Flatbush from 'flatbush';

/** Mean Earth radius in metres (IUGG), used for both the projection and the haversine distance. */
const EARTH_RADIUS_M = 6_371_008.8;
const DEG = Math.PI / 180;
/** Reference latitude of the projection: the middle of Belgium. */
const REF_LAT = 50.5;
const X_SCALE = EARTH_RADIUS_M * DEG * Math.cos(REF_LAT * DEG);
const Y_SCALE = EARTH_RADIUS_M * DEG;
/** Widening of the projected search radius that covers the projection's scale error. */
const RADIUS_MARGIN = 1.05;
/** Projected candidates re-ranked by true distance. */
const CANDIDATES = 16;

/** Great-circle distance in metres between two WGS 84 points (haversine on the mean sphere). */
export function haversineM(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * DEG;
  const dLon = (lon2 - lon1) * DEG;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * DEG) * Math.cos(lat2 * DEG) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Finds the point nearest to a location within a distance. */
export interface NearestIndex {
  /** Position (in the input array) of the nearest point within `maxDistanceM`; ties go to the lower position. */
  nearest(lat: number, lon: number, maxDistanceM: number): number | undefined;
}

/** Builds the index once; points with non-finite coordinates are skipped. */
export function createNearestIndex(points: readonly { readonly lat: number; readonly lon: number }[]): NearestIndex {
  const usable = points.flatMap((p, i) => (Number.isFinite(p.lat) && Number.isFinite(p.lon) ? [i] : []));
  if (usable.length === 0) return { nearest: () => undefined };
  const tree = new Flatbush(usable.length);
  for (const i of usable) tree.add(points[i].lon * X_SCALE, points[i].lat * Y_SCALE);
  tree.finish();

  return {
    nearest(lat, lon, maxDistanceM) {
      if (!Number.isFinite(lat) || !Number.isFinite(lon) || !(maxDistanceM >= 0)) return undefined;
      const hits = tree.neighbors(lon * X_SCALE, lat * Y_SCALE, CANDIDATES, maxDistanceM * RADIUS_MARGIN);
      let best: number | undefined;
      let bestD = Infinity;
      for (const h of hits) {
        const i = usable[h];
        const d = haversineM(lat, lon, points[i].lat, points[i].lon);
        if (d > maxDistanceM) continue;
        if (d < bestD || (d === bestD && best !== undefined && i < best)) {
          best = i;
          bestD = d;
        }
      }
      return best;
    },
  };
}
