/** Ring checks the tests apply to published boundaries and generated rings (the service reads rings in src/geo/). */
import type { Ring } from '../../src/geo/polygon.js';

/** True when the ring has at least four positions and its last position equals its first (a GeoJSON linear ring). */
export function isClosedRing(ring: Ring): boolean {
  if (ring.length < 4) return false;
  const first = ring[0]!;
  const last = ring[ring.length - 1]!;
  return first[0] === last[0] && first[1] === last[1];
}
