/**
 * The Nominatim adapter against a loopback server answering in Nominatim's own shapes (API v1, format=jsonv2 with
 * addressdetails): lat/lon as strings, category/type/place_rank/importance/addresstype, an `address` object with
 * OpenStreetMap's Belgian bilingual names, and its failure modes.
 */
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors.js';
import { createNominatimGeocoder } from '../../src/geocode/nominatim-geocoder.js';
import { html, json, seenRequest, startServer, stopServer, type SeenRequest } from './support/loopback.js';

const LICENCE = 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright';
const BELGIUM = { country: 'België / Belgique / Belgien', country_code: 'be' };

/** One jsonv2 place, with the fields Nominatim always writes. */
function place(fields: {
  id: number; lat: string; lon: string; category: string; type: string; rank: number; importance: number;
  addresstype: string; name: string; display: string; address: Record<string, string>;
}) {
  return {
    place_id: fields.id, licence: LICENCE, osm_type: 'way', osm_id: fields.id * 10, lat: fields.lat, lon: fields.lon,
    category: fields.category, type: fields.type, place_rank: fields.rank, importance: fields.importance,
    addresstype: fields.addresstype, name: fields.name, display_name: fields.display, address: fields.address,
    boundingbox: [fields.lat, fields.lat, fields.lon, fields.lon],
  };
}

const SAINT_GERY = place({
  id: 1, lat: '50.8482178', lon: '4.3470125', category: 'place', type: 'square', rank: 25, importance: 0.41, addresstype: 'square',
  name: 'Place Saint-Géry - Sint-Goriksplein',
  display: 'Place Saint-Géry - Sint-Goriksplein, Bruxelles - Brussel, 1000, België / Belgique / Belgien',
  address: { square: 'Place Saint-Géry - Sint-Goriksplein', city: 'Ville de Bruxelles - Stad Brussel', postcode: '1000', ...BELGIUM },
});
const SAINT_LAMBERT = place({
  id: 2, lat: '50.6455368', lon: '5.5738287', category: 'highway', type: 'pedestrian', rank: 26, importance: 0.11, addresstype: 'road',
  name: 'Place Saint-Lambert', display: 'Place Saint-Lambert, Centre, Liège, Wallonie, 4000, België / Belgique / Belgien',
  address: { road: 'Place Saint-Lambert', suburb: 'Centre', city: 'Liège', county: 'Liège', state: 'Wallonie', 'ISO3166-2-lvl4': 'BE-WAL', postcode: '4000', ...BELGIUM },
});
const RUE_NEUVE_1 = place({
  id: 3, lat: '50.8508291', lon: '4.3559134', category: 'building', type: 'retail', rank: 30, importance: 0.00001, addresstype: 'building',
  name: '', display: '1, Rue Neuve - Nieuwstraat, Pentagone - Vijfhoek, Bruxelles - Brussel, 1000, België / Belgique / Belgien',
  address: {
    house_number: '1', road: 'Rue Neuve - Nieuwstraat', suburb: 'Pentagone - Vijfhoek', city: 'Ville de Bruxelles - Stad Brussel',
    county: 'Bruxelles-Capitale - Brussel-Hoofdstad', postcode: '1000', ...BELGIUM,
  },
});
const BURGSTRAAT = place({
  id: 4, lat: '51.0574', lon: '3.718', category: 'highway', type: 'residential', rank: 26, importance: 0.05, addresstype: 'road',
  name: 'Burgstraat', display: 'Burgstraat, Gent, Oost-Vlaanderen, Vlaanderen, 9000, België / Belgique / Belgien',
  address: { road: 'Burgstraat', city: 'Gent', county: 'Oost-Vlaanderen', state: 'Vlaanderen', postcode: '9000', ...BELGIUM },
});
const KERKSTRAAT_ANTWERP = place({
  id: 5, lat: '51.2187', lon: '4.4283', category: 'highway', type: 'residential', rank: 26, importance: 0.05, addresstype: 'road',
  name: 'Kerkstraat', display: 'Kerkstraat, Antwerpen, Vlaanderen, 2060, België / Belgique / Belgien',
  address: { road: 'Kerkstraat', city: 'Antwerpen', postcode: '2060', ...BELGIUM },
});
const LIEGE_CITY = place({
  id: 6, lat: '50.6451381', lon: '5.5734203', category: 'boundary', type: 'administrative', rank: 16, importance: 0.68, addresstype: 'city',
  name: 'Liège', display: 'Liège, Wallonie, België / Belgique / Belgien', address: { city: 'Liège', county: 'Liège', state: 'Wallonie', ...BELGIUM },
});
const LIEGE_PROVINCE = place({
  id: 7, lat: '50.52', lon: '5.6', category: 'boundary', type: 'administrative', rank: 10, importance: 0.6, addresstype: 'province',
  name: 'Liège', display: 'Liège, Wallonie, België / Belgique / Belgien', address: { county: 'Liège', state: 'Wallonie', ...BELGIUM },
});
const LILLE = place({
  id: 8, lat: '50.6365654', lon: '3.0635282', category: 'boundary', type: 'administrative', rank: 16, importance: 0.72, addresstype: 'city',
  name: 'Lille', display: 'Lille, Nord, Hauts-de-France, France', address: { city: 'Lille', county: 'Nord', state: 'Hauts-de-France', country: 'France', country_code: 'fr' },
});
const GRAND_PLACE_1 = place({
  id: 9, lat: '50.8467038', lon: '4.3524901', category: 'tourism', type: 'attraction', rank: 30, importance: 0.2, addresstype: 'tourism',
  name: 'Hôtel de Ville de Bruxelles', display: 'Hôtel de Ville, 1, Grand-Place - Grote Markt, Bruxelles - Brussel, 1000, België / Belgique / Belgien',
  address: { tourism: 'Hôtel de Ville', house_number: '1', road: 'Grand-Place - Grote Markt', city: 'Ville de Bruxelles - Stad Brussel', postcode: '1000', ...BELGIUM },
});

const SEARCHES: Record<string, unknown[]> = {
  'Place Saint-Lambert 1, 4000 Liège': [SAINT_GERY, SAINT_LAMBERT],
  'Rue Neuve 1, 1000 Bruxelles': [RUE_NEUVE_1],
  'Nieuwstraat 1, Brussel': [RUE_NEUVE_1],
  'Kerkstraat 1, 9000 Gent': [BURGSTRAAT, KERKSTRAAT_ANTWERP],
  liege: [LIEGE_PROVINCE, LIEGE_CITY],
  Lille: [LILLE],
  xyzzy: [],
};

describe('Nominatim adapter against a well-behaved Nominatim', () => {
  const seen: SeenRequest[] = [];
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    ({ server, baseUrl } = await startServer((req, res, url) => {
      seen.push(seenRequest(req, url));
      if (url.pathname === '/nominatim/search') return json(res, 200, SEARCHES[url.searchParams.get('q') ?? ''] ?? []);
      if (url.pathname === '/nominatim/reverse') {
        const lat = Number(url.searchParams.get('lat'));
        if (lat > 55) return json(res, 200, { error: 'Unable to geocode' });
        // The nearest object: the town hall at Grand-Place 1, or, for points in the North Sea, a city far away.
        return json(res, 200, lat > 51.3 ? LIEGE_CITY : GRAND_PLACE_1);
      }
      json(res, 404, { error: { code: 404, message: 'Not found' } });
    }));
  });
  afterAll(() => stopServer(server));

  const geocoder = () =>
    createNominatimGeocoder({ baseUrl: `${baseUrl}/nominatim/`, timeoutMs: 5_000, userAgent: 'svc-api/9.9.9 (+https://svc.example/docs)' });

  it('asks jsonv2 with address details for ten candidates, identifying itself', async () => {
    await geocoder().search('Rue Neuve 1, 1000 Bruxelles', 2);
    const last = seen.at(-1)!;
    expect(last.path).toBe('/nominatim/search');
    expect(Object.fromEntries(last.params)).toEqual({ q: 'Rue Neuve 1, 1000 Bruxelles', format: 'jsonv2', addressdetails: '1', limit: '10' });
    expect(last.userAgent).toBe('svc-api/9.9.9 (+https://svc.example/docs)');
  });

  it('drops the more prominent result that contradicts the query, and keeps the right street', async () => {
    expect(await geocoder().search('Place Saint-Lambert 1, 4000 Liège', 5)).toEqual([
      // The street, at the relevance of a street answering an asked house number (HOUSE_ANSWER_FACTOR.street).
      { address: 'Place Saint-Lambert, 4000 Liège', lat: 50.6455368, lon: 5.5738287, relevance: 0.75, kind: 'street' },
    ]);
  });

  it('drops another street or another town, even when nothing is left', async () => {
    expect(await geocoder().search('Kerkstraat 1, 9000 Gent', 5)).toEqual([]);
    expect(await geocoder().search('xyzzy', 5)).toEqual([]);
  });

  it('scores a house from its structured address and displays it in the language the query used', async () => {
    expect(await geocoder().search('Rue Neuve 1, 1000 Bruxelles', 5)).toEqual([
      { address: 'Rue Neuve 1, 1000 Bruxelles', lat: 50.8508291, lon: 4.3559134, relevance: 1, kind: 'address' },
    ]);
    expect((await geocoder().search('Nieuwstraat 1, Brussel', 5))[0]).toMatchObject({ address: 'Nieuwstraat 1, 1000 Brussel', kind: 'address' });
  });

  it('keeps a city as a municipality, drops a province, and keeps a city abroad as a place', async () => {
    expect(await geocoder().search('liege', 5)).toEqual([{ address: 'Liège', lat: 50.6451381, lon: 5.5734203, relevance: 1, kind: 'municipality' }]);
    expect(await geocoder().search('Lille', 5)).toEqual([{ address: 'Lille, France', lat: 50.6365654, lon: 3.0635282, relevance: 1, kind: 'place' }]);
  });

  it('reverse-geocodes to a street-level label within 150 m, else to nothing', async () => {
    expect(await geocoder().reverse(50.8468, 4.3525)).toBe('Grand-Place 1, 1000 Bruxelles');
    expect(Object.fromEntries(seen.at(-1)!.params)).toEqual({ lat: '50.8468', lon: '4.3525', format: 'jsonv2', addressdetails: '1', zoom: '18' });
    expect(await geocoder().reverse(50.85, 4.3525)).toBeUndefined(); // 370 m from the town hall
    expect(await geocoder().reverse(51.4, 2.9)).toBeUndefined(); // only a city: not a street-level label
    expect(await geocoder().reverse(60, 5)).toBeUndefined(); // {"error": "Unable to geocode"}
  });
});

describe('Nominatim adapter: failures are upstream errors', () => {
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    ({ server, baseUrl } = await startServer((_req, res, url) => {
      switch (url.pathname) {
        case '/bad-request/reverse':
          return json(res, 400, { error: { code: 400, message: "Parameter 'lat' must be a number." } });
        case '/rate-limited/search':
          return html(res, 429, '429 Too Many Requests');
        case '/unavailable/search':
          return html(res, 503, '503 Service Unavailable');
        case '/html-200/search':
          return html(res, 200, 'Nominatim Search');
        case '/error-200/search':
          return json(res, 200, { error: 'Unable to geocode' });
        case '/bad-lat/search':
          return json(res, 200, [{ ...SAINT_LAMBERT, lat: 'north' }]);
        case '/no-address/search':
          return json(res, 200, [{ ...SAINT_LAMBERT, address: undefined }]);
        case '/slow/search':
          return; // never answers
      }
      json(res, 404, { error: { code: 404, message: 'Not found' } });
    }));
  });
  afterAll(() => stopServer(server));

  const at = (prefix: string, timeoutMs = 5_000) => createNominatimGeocoder({ baseUrl: `${baseUrl}/${prefix}`, timeoutMs, userAgent: 'test' });
  const failure = async (p: Promise<unknown>): Promise<UpstreamError> => {
    const err = await p.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as Error).message).not.toContain('127.0.0.1');
    return err as UpstreamError;
  };

  it("reports Nominatim's own message for a 400", async () => {
    expect((await failure(at('bad-request').reverse(50, 4))).message).toBe(
      "The geocoder answered a reverse lookup with HTTP 400: 'Parameter \\'lat\\' must be a number.'.",
    );
  });

  it('reports 429 and 503 pages by their status', async () => {
    expect((await failure(at('rate-limited').search('x', 1))).message).toBe('The geocoder answered a search with HTTP 429.');
    expect((await failure(at('unavailable').search('x', 1))).message).toBe('The geocoder answered a search with HTTP 503.');
  });

  it('refuses an HTML page, an error object or a malformed place in a 200', async () => {
    expect((await failure(at('html-200').search('x', 1))).message).toMatch(/malformed JSON/);
    expect((await failure(at('error-200').search('x', 1))).message).toMatch(/an error in a 200 answer/);
    expect((await failure(at('bad-lat').search('x', 1))).message).toMatch(/result 0 has no valid lat/);
    expect((await failure(at('no-address').search('x', 1))).message).toMatch(/result 0 has no address details/);
  });

  it('gives up after its time-out', async () => {
    expect((await failure(at('slow', 150).search('x', 1))).message).toMatch(/did not answer a search within 150 ms/);
  });
});
