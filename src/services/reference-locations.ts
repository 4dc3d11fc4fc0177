/**
 * Reference locations of each city's air benchmark (`air.benchmark`): public squares and streets of the city centre
 * that stand for "the centre" a resident compares an address with. Each is sampled like a point query (the
 * containing cell, or the nearest outdoor cells); the benchmark is the mean of their good-air shares. Coordinates are WGS 84 and lie inside the city's high-resolution zone.
 */
export interface ReferenceLocation {
  readonly name: string;
  readonly lat: number;
  readonly lon: number;
}

/** Reference locations keyed by city id. */
export const REFERENCE_LOCATIONS: Readonly<Record<string, readonly ReferenceLocation[]>> = Object.freeze({
  brussels: [
    { name: 'Grand-Place', lat: 50.84675, lon: 4.35224 },
    { name: 'Place de la Bourse', lat: 50.84808, lon: 4.34965 },
    { name: 'Gare Centrale', lat: 50.84524, lon: 4.35703 },
    { name: 'Mont des Arts', lat: 50.84409, lon: 4.35565 },
    { name: 'Place du Grand Sablon', lat: 50.84032, lon: 4.35581 },
  ],
  ghent: [
    { name: 'Korenmarkt', lat: 51.05466, lon: 3.72161 },
    { name: 'Graslei', lat: 51.05565, lon: 3.72086 },
    { name: 'Vrijdagmarkt', lat: 51.05747, lon: 3.72585 },
    { name: 'Sint-Baafsplein', lat: 51.05326, lon: 3.72573 },
  ],
});
