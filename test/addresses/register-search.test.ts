/**
 * Searching the address index built from a register in the real format (support/register-files.ts): French, Dutch
 * and German names alike with the answer in the query's language, case, accents, abbreviations and small typos, with
 * or without postcode or municipality; an exact house number (with its letter) wins, a number the register lacks is
 * answered only by a registered neighbour within 25 m under its own number, else at street level; the same street
 * name in two municipalities, a postcode shared by two; reverse within 30 m; and hostile queries answered with
 * results or nothing, never an error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAddressRegister, type AddressRegister } from '../../src/addresses/register-geocoder.js';
import { importRegister } from '../../src/addresses/register-import.js';
import { GAZETTEER } from '../../src/geocode/gazetteer-data.js';
import { createGazetteer } from '../../src/geocode/gazetteer.js';
import { nearDistanceM } from '../../src/addresses/house-numbers.js';
import { tempDir } from '../store/helpers.js';
import { EPERONNIERS_7, HERBES_10, LOI_16, writeTestRegister } from './support/register-files.js';
import { HOUSE_ANSWER_FACTOR } from '../../src/geocode/address-match.js';

let root: { dir: string; cleanup: () => Promise<void> };
let register: AddressRegister;

beforeAll(async () => {
  root = await tempDir('register-search');
  await importRegister(root.dir, await writeTestRegister(root.dir));
  register = openAddressRegister(root.dir, createGazetteer(GAZETTEER))!;
});
afterAll(async () => {
  register?.close();
  await root?.cleanup();
});

const search = (q: string, limit = 5) => register.geocoder.search(q, limit);
const top = async (q: string) => (await search(q))[0];

describe('forward search', () => {
  it('finds the same point in French and Dutch, answering in the language of the query', async () => {
    const fr = await top('Rue de la Loi 16, 1000 Bruxelles');
    const nl = await top('Wetstraat 16 Brussel');
    expect(fr).toMatchObject({ address: 'Rue de la Loi 16, 1000 Bruxelles', kind: 'address', lat: LOI_16.lat, lon: LOI_16.lon });
    expect(nl).toMatchObject({ address: 'Wetstraat 16, 1000 Brussel', kind: 'address', lat: LOI_16.lat, lon: LOI_16.lon });
    expect(fr!.relevance).toBeGreaterThanOrEqual(0.9);
    expect(nl!.relevance).toBeGreaterThanOrEqual(0.9);
  });

  it('finds German names in a German-speaking municipality, and its French ones', async () => {
    expect(await top('Neustraße 5, 4700 Eupen')).toMatchObject({ address: 'Neustraße 5, 4700 Eupen', kind: 'address' });
    expect(await top('neustrasse 5 eupen')).toMatchObject({ address: 'Neustraße 5, 4700 Eupen' });
    expect(await top('Rue Neuve 5 Eupen')).toMatchObject({ address: 'Rue Neuve 5, 4700 Eupen' });
  });

  it('ignores case and accents, reads abbreviations, and forgives small typos', async () => {
    const loi = (await top('Rue de la Loi 16, 1000 Bruxelles'))!;
    for (const q of ['RUE DE LA LOI 16 BRUXELLES', 'rue de la loi 16', 'Wetstrat 16 Brussel', 'Wetstr. 16 Brussel', 'Rue de la Loi 16 Bruxeles']) {
      expect(await top(q), q).toMatchObject({ lat: loi.lat, lon: loi.lon, kind: 'address' });
    }
    expect(await top('Av. Louise 54, 1050 Ixelles')).toMatchObject({ address: 'Avenue Louise 54, 1050 Ixelles' });
    expect(await top('Louizalaan 54 Elsene')).toMatchObject({ address: 'Louizalaan 54, 1050 Elsene' });
    expect(await top('Chée de Wavre 100, Ixelles')).toMatchObject({ address: 'Chaussée de Wavre 100, 1050 Ixelles' });
    expect(await top('Waversestwg 100 Elsene')).toMatchObject({ address: 'Waversesteenweg 100, 1050 Elsene' });
    expect(await top('rue du marche aux herbes 10')).toMatchObject({ lat: HERBES_10.lat, lon: HERBES_10.lon });
  });

  it('keeps the letter of a house number: 54A is not 54', async () => {
    const plain = (await top('Avenue Louise 54, 1050 Ixelles'))!;
    const lettered = (await top('Avenue Louise 54A, 1050 Ixelles'))!;
    expect(lettered.address).toBe('Avenue Louise 54A, 1050 Ixelles');
    expect(plain.address).toBe('Avenue Louise 54, 1050 Ixelles');
    expect([lettered.lat, lettered.lon]).not.toEqual([plain.lat, plain.lon]);
  });

  it('answers a number the register lacks only by a registered neighbour within 25 m, under its own number', async () => {
    const hit = (await top('Rue Haute 100, 1000 Bruxelles'))!;
    expect(hit.kind).toBe('address');
    expect(hit.address).toMatch(/^Rue Haute (98|102), 1000 Bruxelles$/);
    expect(hit.address).not.toMatch(/Rue Haute 30\b/);
    // Between 140 and 190 the neighbours are 400 m apart: no registered number is near, so the street is the answer.
    const gap = (await top('Rue Haute 164, 1000 Bruxelles'))!;
    expect(gap).toMatchObject({ kind: 'street', address: 'Rue Haute, 1000 Bruxelles' });
    // A retired address is not an address: 17 is not registered, and no odd neighbour brackets it.
    expect(await top('Rue de la Loi 17, 1000 Bruxelles')).toMatchObject({ kind: 'street', address: 'Rue de la Loi, 1000 Bruxelles' });
  });

  it('answers a number the register lacks at street level, below the exact answer, whatever its neighbours', async () => {
    const exact = (await top('Rue des Éperonniers 5, 1000 Bruxelles'))!;
    expect(exact).toMatchObject({ kind: 'address', address: 'Rue des Éperonniers 5, 1000 Bruxelles', relevance: 1 });
    // Beyond the last registered number (1 to 7), on a street of one registered number, in a long gap, retired (9)
    // and proposed (11) numbers: the street, at relevance HOUSE_ANSWER_FACTOR.street, never another house.
    for (const [q, street] of [
      ['Rue des Éperonniers 40, 1000 Bruxelles', 'Rue des Éperonniers'], ['Spoormakersstraat 40 Brussel', 'Spoormakersstraat'],
      ['Rue de la Violette 40, 1000 Bruxelles', 'Rue de la Violette'], ['Rue de la Violette 21, 1000 Bruxelles', 'Rue de la Violette'],
      ['Rue du Lombard 40, 1000 Bruxelles', 'Rue du Lombard'], ['Rue des Éperonniers 9, 1000 Bruxelles', 'Rue des Éperonniers'],
      ['Rue des Éperonniers 11, 1000 Bruxelles', 'Rue des Éperonniers'],
    ] as const) {
      const hits = await search(q);
      expect(hits[0], q).toMatchObject({ kind: 'street', address: `${street}, 1000 ${street.startsWith('Rue') ? 'Bruxelles' : 'Brussel'}` });
      expect(hits[0]!.relevance, q).toBeLessThanOrEqual(HOUSE_ANSWER_FACTOR.street);
      expect(hits[0]!.relevance, q).toBeLessThan(exact.relevance);
      expect(hits.filter((h) => h.kind === 'address'), q).toEqual([]);
    }
    // Within a run of registered numbers, a neighbour within 25 m answers under its own number, below the exact one.
    const near = (await top('Rue du Lombard 10A, 1000 Bruxelles'))!;
    expect(near).toMatchObject({ kind: 'address', address: 'Rue du Lombard 10, 1000 Bruxelles' });
    expect(near.relevance).toBeLessThanOrEqual(HOUSE_ANSWER_FACTOR.neighbour);
  });

  it('reads box numbers in Dutch, French and German, with or without a postcode, never as another house', async () => {
    for (const q of ['Spoormakersstraat 7 bus 2 Brussel', 'Spoormakersstraat 7 bus 2, 1000 Brussel', 'Rue des Éperonniers 7 bte 2 Bruxelles',
      'Rue des Éperonniers 7 boîte 2', 'Rue des Éperonniers 7 b 2', 'Rue des Éperonniers 7 b2', 'Rue des Éperonniers 7b2',
      'Spoormakersstraat 7 Briefkasten 2', 'Spoormakersstraat 7 box 2 Brussel']) {
      expect(await top(q), q).toMatchObject({ kind: 'address', lat: EPERONNIERS_7.lat, lon: EPERONNIERS_7.lon });
    }
    // Every box word scores alike: the box is not part of the comparison.
    const bus = (await top('Spoormakersstraat 7 bus 2 Brussel'))!.relevance;
    expect((await top('Spoormakersstraat 7 bte 2 Brussel'))!.relevance).toBe(bus);
    expect((await top('Spoormakersstraat 7 Brussel'))!.relevance).toBe(bus);
    // A lettered number with a box, in any order, is that lettered number: 7B is not registered, so the street.
    for (const q of ['Rue des Éperonniers 7B bus 2', 'Rue des Éperonniers bus 2 7B', 'Rue des Éperonniers 7 B2 bus 3']) {
      const hits = await search(q);
      expect(hits.filter((h) => h.kind === 'address' && !/ 7, /.test(h.address)), q).toEqual([]);
    }
    expect(await top('Rue des Éperonniers 7B bus 2')).toMatchObject({ kind: 'street' });
    // A street whose name is a number: the name's number is no house number.
    expect(await top('Rue du 11 Novembre 40, 1050 Ixelles')).toMatchObject({ kind: 'street', address: 'Rue du 11 Novembre, 1050 Ixelles' });
    expect(await top('Rue du 11 Novembre 5 bus 2, 1050 Ixelles')).toMatchObject({ kind: 'address', address: 'Rue du 11 Novembre 5, 1050 Ixelles' });
    // A box without a house number asks for the street.
    expect(await top('Rue du 11 Novembre bte 2, 1050 Ixelles')).toMatchObject({ kind: 'street', address: 'Rue du 11 Novembre, 1050 Ixelles' });
    expect(await top('Rue des Éperonniers bus 2, 1000 Bruxelles')).toMatchObject({ kind: 'street', address: 'Rue des Éperonniers, 1000 Bruxelles' });
  });

  it('tells a number in a street name from the house number, and finds four-digit house numbers', async () => {
    expect(await top('Rue du 11 Novembre 5, 1050 Ixelles')).toMatchObject({ kind: 'address', address: 'Rue du 11 Novembre 5, 1050 Ixelles' });
    expect(await top('Rue du 11 Novembre, 1050 Ixelles')).toMatchObject({ kind: 'street', address: 'Rue du 11 Novembre, 1050 Ixelles' });
    expect(await top('Rue du 1er Mai 7 Ixelles')).toMatchObject({ kind: 'address', address: 'Rue du 1er Mai 7, 1050 Ixelles' });
    expect(await top("Chaussée d'Alsemberg 1200, 1180 Uccle")).toMatchObject({ kind: 'address', address: "Chaussée d'Alsemberg 1200, 1180 Uccle" });
    expect(await top('Alsembergsesteenweg 1202 Ukkel')).toMatchObject({ kind: 'address', address: 'Alsembergsesteenweg 1202, 1180 Ukkel' });
    expect(await top("Chaussée d'Alsemberg 1200")).toMatchObject({ kind: 'address', address: "Chaussée d'Alsemberg 1200, 1180 Uccle" });
  });

  it('tells apart a street name shared by two municipalities, and two municipalities sharing a postcode', async () => {
    const both = await search('Kerkstraat 5');
    expect(both.map((h) => h.address).sort()).toEqual(['Kerkstraat 5, 3000 Leuven', 'Kerkstraat 5, 9000 Gent']);
    const leuven = await search('Kerkstraat 5 Leuven');
    expect(leuven[0]!.address).toBe('Kerkstraat 5, 3000 Leuven');
    expect(leuven.filter((h) => h.kind === 'address').map((h) => h.address)).toEqual(['Kerkstraat 5, 3000 Leuven']);
    expect((await search('Rue de la Station 2, 1300 Wavre')).map((h) => h.address)[0]).toBe('Rue de la Station 2, 1300 Wavre');
    expect((await search('Rue du Moulin 3, 6830 Bouillon')).filter((h) => h.kind === 'address').map((h) => h.address)).toEqual(['Rue du Moulin 3, 6830 Bouillon']);
    expect((await search('Rue du Moulin 3, Vresse-sur-Semois')).map((h) => h.address)[0]).toBe('Rue du Moulin 3, 6830 Vresse-sur-Semois');
    expect((await search('Rue du Moulin 3, 6830')).filter((h) => h.kind === 'address').map((h) => h.address).sort()).toEqual(['Rue du Moulin 3, 6830 Bouillon', 'Rue du Moulin 3, 6830 Vresse-sur-Semois']);
  });

  it('never answers a different house silently: a street the query contradicts is no answer', async () => {
    expect((await search('Rue de la Loi 16, 1050 Ixelles')).filter((h) => h.kind === 'address')).toEqual([]);
    expect((await search('Kerkstraat 5 Namur')).filter((h) => h.kind === 'address')).toEqual([]);
  });

  it('answers municipalities from the gazetteer, not streets of them', async () => {
    const hits = await search('1000 Bruxelles');
    expect(hits[0]).toMatchObject({ kind: 'municipality' });
    expect(hits.every((h) => h.kind === 'municipality')).toBe(true);
  });

  it('answers hostile or odd queries with results or nothing, never an error', async () => {
    const queries = ['a', '"', '*', 'NEAR', 'OR', 'AND', 'NOT', 'Rue "de la Loi', 'loi*', 'NEAR(rue loi)', 'rue OR loi',
      "'; DROP TABLE streets; --", '\u0000\u0007\u001b[31m', 'x'.repeat(10_000), 'Rue de la Loi '.repeat(700), '16', '1000', '{street}: loi', '^loi'];
    for (const q of queries) {
      const hits = await search(q);
      expect(Array.isArray(hits), q.slice(0, 40)).toBe(true);
    }
    expect(await search('rue de la loi OR haute')).toEqual(expect.any(Array));
  });
});

describe('reverse search', () => {
  it('gives the nearest registered address within 30 m, else nothing', async () => {
    expect(await register.geocoder.reverse(LOI_16.lat + 3e-5, LOI_16.lon)).toBe('Rue de la Loi 16, 1000 Bruxelles');
    expect(await register.geocoder.reverse(50.5, 4.5)).toBeUndefined();
    // Just outside 30 m of every address of the block.
    const far = { lat: HERBES_10.lat + 0.0004, lon: HERBES_10.lon };
    expect(nearDistanceM(far, HERBES_10)).toBeGreaterThan(30);
    expect(await register.geocoder.reverse(far.lat, far.lon)).toBeUndefined();
  });
});
