/**
 * Landmark squares of the zones answered by a street-level dataset (WGS 84). They are the reference locations of the
 * air benchmark (`air.benchmark`: the mean good-air share over them, each sampled like a point query), and the stand-in
 * city model keeps them open (a square, not a building block), as they are in the real city. A city answered by the
 * nationwide dataset (Ghent) has none: its 5 km cells hold no squares, and no benchmark is computed for it.
 */
export interface ReferenceLocation {
  readonly name: string;
  readonly lat: number;
  readonly lon: number;
}

/** Landmarks keyed by city id. */
export const REFERENCE_LOCATIONS: Readonly<Record<string, readonly ReferenceLocation[]>> = Object.freeze({
  brussels: [
    { name: 'Grand-Place', lat: 50.84675, lon: 4.35224 },
    { name: 'Place de la Bourse', lat: 50.84808, lon: 4.34965 },
    { name: 'Gare Centrale', lat: 50.84524, lon: 4.35703 },
    { name: 'Mont des Arts', lat: 50.84409, lon: 4.35565 },
    { name: 'Place du Grand Sablon', lat: 50.84032, lon: 4.35581 },
  ],
});
