import { describe, expect, it } from 'vitest';
import { getCity } from '../../src/cities/catalog.js';
import { resolveCoverage } from '../../src/cities/coverage.js';
import { OutsideCoverageError, ServiceError } from '../../src/errors.js';
import type { ResultKind } from '../../src/geocode/address-parts.js';
import type { GeocodeHit, Geocoder } from '../../src/geocode/geocoder.js';
import { acceptsStreetOrAreaResults, locate, RELEVANCE_FLOOR, type Located } from '../../src/services/locate.js';
import { embeddedGeocoder } from '../api/support/harness.js';

/** A geocoder that answers every search with `hits`. */
const answering = (...hits: GeocodeHit[]): Geocoder => ({ stable: true, search: async () => hits, reverse: async () => undefined });
const hit = (kind: ResultKind, relevance: number, lat: number, lon: number, address = 'Somewhere 1, 1000 Bruxelles'): GeocodeHit => ({
  address, lat, lon, relevance, kind,
});
const IN_BRUSSELS_ZONE = { lat: 50.8467, lon: 4.3525 };
const IN_NAMUR = { lat: 50.465, lon: 4.866 };

/** The located place, or the detail of the OutsideCoverageError it threw. */
async function outcome(address: string, geocoder: Geocoder = embeddedGeocoder()): Promise<Located | string> {
  try {
    return await locate({ address }, geocoder);
  } catch (err) {
    if (err instanceof OutsideCoverageError) return err.message;
    throw err;
  }
}

describe('locate: the addresses that used to answer for the wrong street', () => {
  it('Place Saint-Lambert 1, 4000 Liège: the Liège municipality centre, answered nationwide', async () => {
    expect(await outcome('Place Saint-Lambert 1, 4000 Liège')).toEqual({
      address: '4000 Liège', lat: 50.6455, lon: 5.5735, coverage: { kind: 'nationwide', dataset: 'belgium_lowres' },
    });
  });

  it('Rue Neuve 1, 1000 Bruxelles: not recognised (only the municipality, whose centre is in a street-level zone)', async () => {
    const detail = await outcome('Rue Neuve 1, 1000 Bruxelles');
    expect(detail).toBe(
      "The address 'Rue Neuve 1, 1000 Bruxelles' was not recognised at street level: only the area '1000 Bruxelles' " +
        'was found, and where street-level data answer an address must name a house the geocoder knows.',
    );
  });

  it('Rue Haute 100 and Rue des Éperonniers 5: the street the gazetteer knows by another house, refused at street level', async () => {
    expect(await outcome('Rue Haute 100, 1000 Bruxelles')).toBe(
      "The address 'Rue Haute 100, 1000 Bruxelles' was not found at house level: only the street 'Rue Haute, 1000 Bruxelles' " +
        'was found (the house number is not registered, nor one within 25 m of its place, or none was given), and where ' +
        'street-level data answer an address must name a house the geocoder knows.',
    );
    expect(await outcome('Rue des Éperonniers 5, 1000 Bruxelles')).toMatch(/not found at house level: only the street 'Rue des Éperonniers, 1000 Bruxelles'/);
    // A street named without a number is no house either.
    expect(await outcome('Grote Markt Brussel')).toMatch(/not found at house level: only the street 'Grand-Place, 1000 Bruxelles'/);
    // Box numbers are part of the house, with or without a postcode.
    for (const q of ['Grand-Place 1 bus 2 Brussel', 'Grand-Place 1 bte 2, 1000 Bruxelles', 'Grand-Place 1 b2 Bruxelles', 'Grand-Place 1 boîte 2']) {
      expect(await outcome(q), q).toMatchObject({ address: 'Grand-Place 1, 1000 Bruxelles', coverage: { kind: 'city' } });
    }
  });

  it('Kerkstraat 1, 9000 Gent: the Ghent municipality only where the nationwide dataset answers there', async () => {
    const result = await outcome('Kerkstraat 1, 9000 Gent');
    const coverage = resolveCoverage(51.0538, 3.725);
    expect(coverage).toMatchObject({ kind: 'city', city: getCity('ghent') });
    if (coverage.kind === 'outside') throw new Error('the Ghent centre is covered');
    if (acceptsStreetOrAreaResults(coverage)) {
      expect(result).toEqual({ address: '9000 Gent', lat: 51.0538, lon: 3.725, coverage });
    } else {
      expect(result).toMatch(/^The address 'Kerkstraat 1, 9000 Gent' was not recognised at street level: only the area '9000 Gent'/);
    }
  });

  it('xyzzy: not recognised', async () => {
    expect(await outcome('xyzzy')).toBe("The address 'xyzzy' was not recognised, so it could not be resolved inside a covered area.");
  });

  it('still resolves the addresses it knows', async () => {
    expect(await outcome('Grand-Place 1, 1000 Bruxelles')).toMatchObject({ address: 'Grand-Place 1, 1000 Bruxelles', coverage: { kind: 'city' } });
    expect(await outcome('Grote Markt 1 Brussel')).toMatchObject({ address: 'Grand-Place 1, 1000 Bruxelles' });
    expect(await outcome('Marche aux herbes 10')).toMatchObject({ address: 'Rue du Marché aux Herbes 10, 1000 Bruxelles' });
    expect(await outcome('liege')).toMatchObject({ address: '4000 Liège', coverage: { kind: 'nationwide' } });
  });

  it('answers a bare municipality name in a street-level zone as not recognised at street level', async () => {
    expect(await outcome('Bruxelles')).toMatch(/not recognised at street level: only the area '1000 Bruxelles'/);
  });

  it('says where an address abroad resolves to', async () => {
    expect(await outcome('Paris, France')).toBe("The address 'Paris, France' resolves to 'Paris, France', outside every covered area.");
  });
});

describe('locate: the relevance floor and the area rule, whatever the geocoder', () => {
  it('uses the top result at the floor, and refuses it just below', async () => {
    const at = answering(hit('address', RELEVANCE_FLOOR, IN_BRUSSELS_ZONE.lat, IN_BRUSSELS_ZONE.lon));
    expect(await outcome('x', at)).toMatchObject({ coverage: { kind: 'city' } });
    const below = answering(hit('address', 0.599, IN_BRUSSELS_ZONE.lat, IN_BRUSSELS_ZONE.lon, 'Rue Blaes 20, 1000 Bruxelles'));
    expect(await outcome('rue', below)).toBe(
      "The address 'rue' was not recognised: its closest match, 'Rue Blaes 20, 1000 Bruxelles', has relevance 0.599, " +
        'below the 0.6 an answer needs (GET /v1/geocode lists the candidates).',
    );
  });

  it('takes a house anywhere, a street- or area-level result only where the nationwide dataset answers', async () => {
    expect(await outcome('x', answering(hit('address', 0.9, IN_BRUSSELS_ZONE.lat, IN_BRUSSELS_ZONE.lon)))).toMatchObject({ coverage: { kind: 'city' } });
    expect(await outcome('x', answering(hit('street', 0.9, IN_BRUSSELS_ZONE.lat, IN_BRUSSELS_ZONE.lon)))).toMatch(/not found at house level/);
    expect(await outcome('x', answering(hit('street', 0.9, IN_NAMUR.lat, IN_NAMUR.lon)))).toMatchObject({ coverage: { kind: 'nationwide' } });
    for (const kind of ['municipality', 'place'] as const) {
      expect(await outcome('x', answering(hit(kind, 0.9, IN_BRUSSELS_ZONE.lat, IN_BRUSSELS_ZONE.lon)))).toMatch(/not recognised at street level/);
      expect(await outcome('x', answering(hit(kind, 0.9, IN_NAMUR.lat, IN_NAMUR.lon)))).toMatchObject({ coverage: { kind: 'nationwide' } });
    }
  });

  it('decides by the answering dataset, not by the city', () => {
    const ghent = getCity('ghent')!;
    expect(acceptsStreetOrAreaResults({ kind: 'nationwide', dataset: 'belgium_lowres' })).toBe(true);
    expect(acceptsStreetOrAreaResults({ kind: 'city', city: ghent, dataset: 'belgium_lowres' })).toBe(true);
    // Were Ghent ever answered by a street-level dataset of its own, its zone would refuse area results like Brussels'.
    expect(acceptsStreetOrAreaResults({ kind: 'city', city: ghent, dataset: 'brussels_extended' })).toBe(false);
    expect(acceptsStreetOrAreaResults({ kind: 'city', city: getCity('brussels')!, dataset: 'brussels_extended' })).toBe(false);
  });

  it('quotes the address and the result in details', async () => {
    const detail = await outcome('<b>Rue</b>\n', answering(hit('address', 0.1, 50.8, 4.3, '<i>x</i>')));
    expect(detail).toContain("'\\u003cb\\u003eRue\\u003c/b\\u003e'");
    expect(detail).toContain("'\\u003ci\\u003ex\\u003c/i\\u003e'");
    expect(detail).not.toMatch(/[<>\n]/);
  });

  it('keeps coordinates as they were: no geocoder, no floor', async () => {
    const geocoder: Geocoder = { stable: true, search: async () => Promise.reject(new Error('not called')), reverse: async () => undefined };
    expect(await locate({ lat: 50.8467, lon: 4.3525 }, geocoder)).toMatchObject({ address: null, coverage: { kind: 'city' } });
    await expect(locate({ lat: 48.85, lon: 2.35 }, geocoder)).rejects.toBeInstanceOf(ServiceError);
  });
});
