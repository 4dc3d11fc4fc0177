import { describe, expect, it } from 'vitest';
import { inBelgium } from '../../src/geo/belgium.js';
import { getCity } from '../../src/cities/catalog.js';
import { pointInRing } from '../../src/geo/polygon.js';
import { roundCoord } from '../../src/geo/round.js';
import { GAZETTEER } from '../../src/geocode/gazetteer-data.js';

const addresses = GAZETTEER.filter((e) => e.kind === 'address');
const brussels = addresses.filter((e) => e.address.endsWith('1000 Bruxelles'));
const ghent = addresses.filter((e) => e.address.endsWith('9000 Gent'));
const municipalities = GAZETTEER.filter((e) => e.kind === 'municipality');
const abroad = GAZETTEER.filter((e) => e.kind === 'place');

/** Strict point-in-polygon against a city's published boundary. */
function inCity(id: string, lat: number, lon: number): boolean {
  return pointInRing(lon, lat, getCity(id)!.boundary.geometry.coordinates[0]);
}

describe('gazetteer data', () => {
  it('has about 100 Brussels addresses, 30 Ghent addresses, 60 municipalities and a few places abroad', () => {
    expect(brussels.length).toBeGreaterThanOrEqual(100);
    expect(ghent.length).toBeGreaterThanOrEqual(30);
    expect(brussels.length + ghent.length).toBe(addresses.length);
    expect(municipalities.length).toBeGreaterThanOrEqual(60);
    expect(abroad.length).toBeGreaterThanOrEqual(8);
  });

  it('has unique addresses and coordinates given to at most 5 decimals', () => {
    expect(new Set(GAZETTEER.map((e) => e.address)).size).toBe(GAZETTEER.length);
    for (const e of GAZETTEER) {
      expect(roundCoord(e.lat)).toBe(e.lat);
      expect(roundCoord(e.lon)).toBe(e.lon);
    }
  });

  it('formats addresses as "street number, postcode municipality"', () => {
    for (const e of addresses) expect(e.address).toMatch(/^\S.* \d+[a-z]?, \d{4} \S+$/);
    for (const e of municipalities) expect(e.address).toMatch(/^\d{4} \S/);
  });

  it.each(brussels.map((e) => [e.address, e] as const))('%s lies inside the Brussels zone', (_a, e) => {
    expect(inCity('brussels', e.lat, e.lon)).toBe(true);
  });

  it.each(ghent.map((e) => [e.address, e] as const))('%s lies inside the Ghent zone', (_a, e) => {
    expect(inCity('ghent', e.lat, e.lon)).toBe(true);
  });

  it.each(municipalities.map((e) => [e.address, e] as const))('%s lies in Belgium', (_a, e) => {
    expect(inBelgium(e.lon, e.lat)).toBe(true);
  });

  it.each(abroad.map((e) => [e.address, e] as const))('%s lies outside Belgium', (_a, e) => {
    expect(inBelgium(e.lon, e.lat)).toBe(false);
  });
});
