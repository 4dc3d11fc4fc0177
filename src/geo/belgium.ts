/**
 * Is a WGS 84 position in Belgium? The national boundary (belgium-boundary.ts) decides nationwide service; anything
 * outside it is outside coverage. The test is strict (a point exactly on the border is outside) and planar in
 * [lon, lat], the same reading of the polygon as any GeoJSON consumer.
 */
import { BELGIUM_BOUNDARY } from './belgium-boundary.js';
import { IndexedPolygon } from './polygon-index.js';

const BELGIUM = new IndexedPolygon(BELGIUM_BOUNDARY);

/** True when (lon, lat) lies strictly inside Belgium's national boundary. */
export function inBelgium(lon: number, lat: number): boolean {
  return BELGIUM.contains(lon, lat);
}
