import { describe, expect, it } from 'vitest';
import { createGazetteer } from '../../src/geocode/gazetteer.js';
import { createEmbeddedGeocoder, createHttpGeocoder } from '../../src/geocode/geocoder.js';
import { TEST_GAZETTEER } from './fixtures.js';

describe('embedded geocoder', () => {
  const gazetteer = createGazetteer(TEST_GAZETTEER);
  const geocoder = createEmbeddedGeocoder(gazetteer);

  it('answers search from the gazetteer', async () => {
    expect(await geocoder.search('korenmarkt gent', 1)).toEqual(gazetteer.search('korenmarkt gent', 1));
    expect(await geocoder.search('xyzzy', 5)).toEqual([]);
  });

  it('answers reverse with the nearest address text, or undefined', async () => {
    expect(await geocoder.reverse(50.8469, 4.35247)).toBe('Grand-Place 1, 1000 Bruxelles');
    expect(await geocoder.reverse(48.85, 2.35)).toBeUndefined();
  });

  it('is reachable next to the HTTP adapter through one module', () => {
    expect(typeof createHttpGeocoder).toBe('function');
  });
});
