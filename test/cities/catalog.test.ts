import { describe, expect, it } from 'vitest';
import { ANSWERING_DATASETS, CITIES, NATIONWIDE, getCity, ignoresRadius, streetLevelCities } from '../../src/cities/catalog.js';
import { METRICS, PRODUCTS } from '../../src/cities/city-types.js';
import { ringArea } from '../../src/geo/polygon.js';
import { isClosedRing } from '../helpers/rings.js';

const MAP_LAYERS = ['thermal', 'wind', 'air', 'buildings'];

describe('city catalogue: every CityEntry and CityDetail field of the spec', () => {
  it.each(CITIES.map((c) => [c.id, c] as const))('%s is complete and well-formed', (_id, city) => {
    expect(city.id).toMatch(/^[a-z][a-z0-9-]*$/);
    expect(typeof city.name).toBe('string');
    expect(city.name.length).toBeGreaterThan(0);
    expect(city.country).toMatch(/^[A-Z]{2}$/);
    expect(() => new Intl.DateTimeFormat('en', { timeZone: city.timezone })).not.toThrow();

    const [west, south, east, north] = city.bbox;
    expect(city.bbox).toHaveLength(4);
    expect(west).toBeLessThan(east);
    expect(south).toBeLessThan(north);

    expect(city.metrics.length).toBeGreaterThan(0);
    expect(new Set(city.metrics).size).toBe(city.metrics.length);
    for (const m of city.metrics) expect(METRICS).toContain(m);

    expect(Object.keys(city.products).sort()).toEqual([...PRODUCTS].sort());
    for (const p of PRODUCTS) expect(typeof city.products[p]).toBe('boolean');

    expect(city.map !== undefined).toBe(city.products.map);
    if (city.map) {
      expect(city.map.layers.length).toBeGreaterThan(0);
      for (const layer of city.map.layers) expect(MAP_LAYERS).toContain(layer);
      expect(Number.isInteger(city.map.forecast_hours)).toBe(true);
      expect(city.map.cadence).toBe('hourly');
    }

    expect(Number.isInteger(city.reference_year)).toBe(true);
    expect(city.attribution.length).toBeGreaterThan(0);
    expect(Object.keys(ANSWERING_DATASETS)).toContain(city.dataset);
  });

  it.each(CITIES.map((c) => [c.id, c] as const))('%s has a GeoJSON boundary: one closed ring whose bbox is the bbox', (
    _id,
    city,
  ) => {
    const { boundary } = city;
    expect(boundary.type).toBe('Feature');
    expect(typeof boundary.properties).toBe('object');
    expect(boundary.geometry.type).toBe('Polygon');
    expect(boundary.geometry.coordinates).toHaveLength(1);
    const ring = boundary.geometry.coordinates[0];
    expect(isClosedRing(ring)).toBe(true);
    expect(ringArea(ring)).toBeGreaterThan(0);
    const lons = ring.map(([lon]) => lon);
    const lats = ring.map(([, lat]) => lat);
    expect(city.bbox).toEqual([Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)]);
    // Serialises as plain GeoJSON.
    const parsed = JSON.parse(JSON.stringify(boundary)) as { geometry: { coordinates: number[][][] } };
    expect(parsed.geometry.coordinates[0][0]).toEqual([...ring[0]]);
  });

  it('has unique ids, each found by getCity', () => {
    expect(new Set(CITIES.map((c) => c.id)).size).toBe(CITIES.length);
    for (const city of CITIES) expect(getCity(city.id)).toBe(city);
    expect(getCity('antwerp')).toBeUndefined();
    expect(getCity('Brussels')).toBeUndefined();
  });

  it('is frozen', () => {
    const brussels = getCity('brussels')!;
    expect(Object.isFrozen(CITIES)).toBe(true);
    expect(Object.isFrozen(brussels)).toBe(true);
    expect(Object.isFrozen(brussels.products)).toBe(true);
    expect(Object.isFrozen(brussels.boundary.geometry.coordinates[0])).toBe(true);
  });
});

describe('the decided cities', () => {
  it('Brussels: all six products, air/wind/thermal, a 48-hour hourly map, dataset brussels_extended', () => {
    const c = getCity('brussels')!;
    expect([c.name, c.country, c.timezone, c.dataset, c.reference_year]).toEqual([
      'Brussels',
      'BE',
      'Europe/Brussels',
      'brussels_extended',
      2023,
    ]);
    expect(Object.values(c.products).every(Boolean)).toBe(true);
    expect(c.metrics).toEqual(['air', 'wind', 'thermal']);
    expect(c.map).toEqual({ layers: ['thermal', 'wind', 'air', 'buildings'], forecast_hours: 48, cadence: 'hourly' });
    expect(c.boundary.geometry.coordinates[0]).toHaveLength(57);
  });

  it('Ghent: geocode, historical and reports only, air and noise, no map, answered by belgium_lowres', () => {
    const c = getCity('ghent')!;
    expect([c.name, c.country, c.timezone, c.dataset, c.reference_year]).toEqual([
      'Ghent',
      'BE',
      'Europe/Brussels',
      'belgium_lowres',
      2023,
    ]);
    expect(c.products).toEqual({
      geocode: true,
      historical: true,
      realtime: false,
      forecast: false,
      reports: true,
      map: false,
    });
    expect(c.metrics).toEqual(['air', 'noise']);
    expect(c.map).toBeUndefined();
    expect('map' in c).toBe(false);
  });

  it('names the nationwide dataset', () => {
    expect(NATIONWIDE).toEqual({ dataset: 'belgium_lowres', reference_year: 2023 });
  });

  it('answers only from the spec\'s two datasets: the street-level model honours a radius, the nationwide grid not', () => {
    expect(ANSWERING_DATASETS).toEqual({
      brussels_extended: { id: 'brussels_extended', sampling: 'street' },
      belgium_lowres: { id: 'belgium_lowres', sampling: 'containing-cell' },
    });
    expect(ignoresRadius('brussels_extended')).toBe(false);
    expect(ignoresRadius('belgium_lowres')).toBe(true);
    expect(ignoresRadius(NATIONWIDE.dataset)).toBe(true);
  });

  it('precomputes only the cities answered by a street-level dataset', () => {
    expect(streetLevelCities().map((c) => c.id)).toEqual(['brussels']);
  });
});
