import { describe, expect, it } from 'vitest';
import type { GazetteerEntry } from '../../src/geocode/gazetteer-types.js';
import { REVERSE_MAX_DISTANCE_M, createGazetteer } from '../../src/geocode/gazetteer.js';
import { haversineM } from '../../src/geocode/nearest.js';
import { TEST_GAZETTEER } from './fixtures.js';

const g = createGazetteer(TEST_GAZETTEER);
const top = (q: string): string | undefined => g.search(q, 5)[0]?.address;

describe('gazetteer search', () => {
  // A street named without a number is answered as the street (at the point the gazetteer has), never as a house.
  it.each([
    ['rue du marche aux herbes', 'Rue du Marché aux Herbes, 1000 Bruxelles'],
    ['grand place', 'Grand-Place, 1000 Bruxelles'],
    ['Grote Markt Brussel', 'Grand-Place, 1000 Bruxelles'],
    ['korenmarkt gent', 'Korenmarkt, 9000 Gent'],
    ['liege', '4000 Liège'],
    ['LIÈGE', '4000 Liège'],
    ['luik', '4000 Liège'],
    ['grasmarkt', 'Rue du Marché aux Herbes, 1000 Bruxelles'],
    ['antwerp grote markt', 'Grote Markt, 2000 Antwerpen'],
    ['marche herbes 12', 'Rue du Marché aux Herbes 12, 1000 Bruxelles'],
  ])('finds %s', (q, expected) => {
    expect(top(q)).toBe(expected);
  });

  it.each([
    ['bruxels', '1000 Bruxelles'],
    ['korenmarket', 'Korenmarkt, 9000 Gent'],
    ['avenu luise', 'Avenue Louise, 1050 Ixelles'],
    ['grnd place', 'Grand-Place, 1000 Bruxelles'],
    ['rue du marchee aux herbs', 'Rue du Marché aux Herbes, 1000 Bruxelles'],
    ['korenm', 'Korenmarkt, 9000 Gent'],
  ])('tolerates the misspelt or partial %s', (q, expected) => {
    expect(top(q)).toBe(expected);
  });

  it('gives an exact match relevance 1, whatever the case, accents and punctuation', () => {
    expect(g.search('Grand-Place 1, 1000 Bruxelles', 1)[0]).toEqual({
      address: 'Grand-Place 1, 1000 Bruxelles',
      lat: 50.84672,
      lon: 4.35247,
      relevance: 1,
      kind: 'address',
    });
    expect(g.search('rue du marche aux herbes 12 1000 BRUXELLES', 1)[0].relevance).toBe(1);
    expect(g.search('Grote Markt 1, 1000 Brussel', 1)[0]).toMatchObject({
      address: 'Grand-Place 1, 1000 Bruxelles',
      relevance: 1,
    });
  });

  it('keeps relevance in 0..1, sorted best first, below 1 for anything inexact', () => {
    for (const q of ['gent', 'grand place', 'bruxels', 'rue', 'kor', '1000']) {
      const hits = g.search(q, 5);
      expect(hits.length).toBeGreaterThan(0);
      for (const h of hits) {
        expect(h.relevance).toBeGreaterThan(0);
        expect(h.relevance).toBeLessThan(1);
      }
      for (let i = 1; i < hits.length; i++) expect(hits[i].relevance).toBeLessThanOrEqual(hits[i - 1].relevance);
    }
  });

  it('prefers the municipality for a bare city name', () => {
    expect(g.search('gent', 3).map((h) => h.address)).toEqual([
      '9000 Gent',
      'Korenlei, 9000 Gent',
      'Korenmarkt, 9000 Gent',
    ]);
  });

  it('breaks ties by address in numeric order and does not depend on gazetteer order', () => {
    const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
    const hits = g.search('grand place', 10);
    for (let i = 1; i < hits.length; i++) {
      if (hits[i].relevance === hits[i - 1].relevance) expect(collator.compare(hits[i - 1].address, hits[i].address)).toBeLessThan(0);
    }
    expect(hits.filter((h, i) => i > 0 && h.relevance === hits[i - 1].relevance).length).toBeGreaterThan(0);
    const reversed = createGazetteer([...TEST_GAZETTEER].reverse());
    // The street answered for its houses stands at its lowest-numbered house's point, whatever the order.
    expect(reversed.search('rue du marche aux herbes', 1)[0]).toMatchObject({ address: 'Rue du Marché aux Herbes, 1000 Bruxelles', lat: 50.84736 });
    for (const q of ['grand place', 'gent', 'bruxels', 'rue', 'liege', 'grote markt', 'rue du marche aux herbes', 'marche herbes 7']) {
      expect(reversed.search(q, 5)).toEqual(g.search(q, 5));
      expect(g.search(q, 5)).toEqual(g.search(q, 5));
    }
  });

  it('honours the limit and answers nothing for empty queries or limits below 1', () => {
    expect(g.search('bruxelles', 2)).toHaveLength(2);
    expect(g.search('bruxelles', 2.9)).toHaveLength(2);
    expect(g.search('bruxelles', 0)).toEqual([]);
    expect(g.search('bruxelles', Number.NaN)).toEqual([]);
    expect(g.search('', 5)).toEqual([]);
    expect(g.search(' ,- ', 5)).toEqual([]);
  });

  it('answers nothing for text that matches no entry, or only by phonetic key', () => {
    expect(g.search('xyzzy qwerty', 5)).toEqual([]);
    expect(g.search('xyzzy', 5)).toEqual([]);
    // "plas" and "place" share a phonetic key but are two edits apart in four letters: not a typo of each other.
    expect(g.search('grand plas', 5)).toEqual([]);
  });

  it('does not translate places abroad, and lists a duplicated address once', () => {
    expect(g.search('mons', 5).map((h) => h.address)).not.toContain('Bergen, Norway');
    const dup = createGazetteer([...TEST_GAZETTEER, TEST_GAZETTEER[5]]);
    expect(dup.search('korenmarkt 5', 5).filter((h) => h.address === 'Korenmarkt 5, 9000 Gent')).toHaveLength(1);
  });

  it('works on an empty gazetteer', () => {
    const empty = createGazetteer([]);
    expect(empty.search('gent', 5)).toEqual([]);
    expect(empty.reverse(50.85, 4.35)).toBeUndefined();
  });
});

describe('gazetteer reverse', () => {
  it('returns the nearest address entry within 150 m', () => {
    // About 20 m north of Grand-Place 1.
    expect(g.reverse(50.8469, 4.35247)?.address).toBe('Grand-Place 1, 1000 Bruxelles');
    // Between the two Marché aux Herbes numbers, slightly closer to 12.
    expect(g.reverse(50.8474, 4.35437)?.address).toBe('Rue du Marché aux Herbes 12, 1000 Bruxelles');
  });

  it('ignores municipality and place entries, and anything beyond 150 m', () => {
    // The centre of "1000 Bruxelles" is about 300 m from the nearest address.
    expect(g.reverse(50.85034, 4.35171 - 0.003)).toBeUndefined();
    expect(g.reverse(50.62925, 3.05726)).toBeUndefined();
    const far = { lat: 50.84672 + 0.0014, lon: 4.35247 };
    expect(haversineM(far.lat, far.lon, 50.84672, 4.35247)).toBeGreaterThan(REVERSE_MAX_DISTANCE_M);
    expect(g.reverse(far.lat, far.lon)).toBeUndefined();
    expect(g.reverse(Number.NaN, 4.35)).toBeUndefined();
  });
});

describe('gazetteer at city scale', () => {
  const streets = ['Rue Neuve', 'Avenue Louise', 'Rue de la Loi', 'Chaussée de Wavre', 'Boulevard Anspach'];
  const cities = [
    ['1000 Bruxelles', 50.8467, 4.3525],
    ['9000 Gent', 51.0543, 3.7174],
    ['4000 Liège', 50.6326, 5.5797],
  ] as const;
  const entries: GazetteerEntry[] = [];
  cities.forEach(([city, lat, lon], c) => {
    streets.forEach((street, s) => {
      for (let n = 1; n <= 400; n++) {
        const at = { lat: lat + s * 0.001 + n * 1e-5, lon: lon + c * 1e-4 };
        entries.push({ address: `${street} ${n}, ${city}`, ...at, kind: 'address' });
      }
    });
  });
  for (const [city, lat, lon] of cities) entries.push({ address: city, lat, lon, kind: 'municipality' });
  const big = createGazetteer(entries);

  it('still ranks municipalities and exact addresses first among thousands of entries', () => {
    expect(entries.length).toBe(6003);
    expect(big.search('liege', 5)[0].address).toBe('4000 Liège');
    expect(big.search('gent', 5)[0].address).toBe('9000 Gent');
    expect(big.search('avenue louise 257 gent', 1)[0]).toMatchObject({ address: 'Avenue Louise 257, 9000 Gent' });
    expect(big.search('Rue de la Loi 399, 4000 Liège', 1)[0]).toMatchObject({ relevance: 1 });
    expect(big.search('chaussee de wavre 12 bruxelles', 1)[0].address).toBe('Chaussée de Wavre 12, 1000 Bruxelles');
  });
});
