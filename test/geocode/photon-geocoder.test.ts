/**
 * The Photon adapter against a loopback server answering in Photon's own shapes: a GeoJSON FeatureCollection whose
 * features carry `properties` (name, street, housenumber, postcode, city, district, countrycode, type, osm_key,
 * osm_value, osm_type, osm_id, extent) and a Point `geometry` with [lon, lat]; errors as `{"message": ...}`.
 */
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors.js';
import { createPhotonGeocoder } from '../../src/geocode/photon-geocoder.js';
import { html, json, seenRequest, startServer, stopServer, type SeenRequest } from './support/loopback.js';

/** One Photon feature. */
function feature(lon: number, lat: number, properties: Record<string, unknown>) {
  return { type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties };
}
const collection = (...features: unknown[]) => ({ type: 'FeatureCollection', features });
const BE = { country: 'België / Belgique / Belgien', countrycode: 'BE' };

const SAINT_GERY = feature(4.3470125, 50.8482178, {
  osm_type: 'W', osm_id: 4_000_001, osm_key: 'place', osm_value: 'square', type: 'street', name: 'Place Saint-Géry - Sint-Goriksplein',
  postcode: '1000', city: 'Bruxelles - Brussel', district: 'Pentagone - Vijfhoek', ...BE, extent: [4.3465, 50.8486, 4.3475, 50.8478],
});
const SAINT_LAMBERT = feature(5.5738287, 50.6455368, {
  osm_type: 'W', osm_id: 4_000_002, osm_key: 'highway', osm_value: 'pedestrian', type: 'street', name: 'Place Saint-Lambert',
  postcode: '4000', city: 'Liège', county: 'Liège', state: 'Wallonie', ...BE, extent: [5.5722, 50.6462, 5.5755, 50.6448],
});
const RUE_NEUVE_1 = feature(4.3559134, 50.8508291, {
  osm_type: 'N', osm_id: 4_000_003, osm_key: 'place', osm_value: 'house', type: 'house', housenumber: '1', street: 'Rue Neuve - Nieuwstraat',
  postcode: '1000', city: 'Bruxelles - Brussel', district: 'Pentagone - Vijfhoek', county: 'Bruxelles-Capitale - Brussel-Hoofdstad', ...BE,
});
const KORENMARKT_POI = feature(3.7216, 51.0547, {
  osm_type: 'N', osm_id: 4_000_004, osm_key: 'amenity', osm_value: 'cafe', type: 'house', name: 'Café Den Turk',
  street: 'Korenmarkt', housenumber: '7', postcode: '9000', city: 'Gent', ...BE,
});
const GENK = feature(5.5001, 50.9658, {
  osm_type: 'R', osm_id: 4_000_005, osm_key: 'place', osm_value: 'town', type: 'city', name: 'Genk', postcode: '3600', county: 'Limburg', ...BE,
  extent: [5.43, 51.03, 5.6, 50.91],
});
const GENT = feature(3.725, 51.0538, {
  osm_type: 'R', osm_id: 4_000_006, osm_key: 'place', osm_value: 'city', type: 'city', name: 'Gent', county: 'Oost-Vlaanderen', ...BE,
});
const LIMBURG = feature(5.4, 51.0, { osm_type: 'R', osm_id: 4_000_007, osm_key: 'boundary', osm_value: 'administrative', type: 'county', name: 'Limburg', ...BE });

const SEARCHES: Record<string, unknown> = {
  'Place Saint-Lambert 1, 4000 Liège': collection(SAINT_GERY, SAINT_LAMBERT),
  'Rue Neuve 1, 1000 Bruxelles': collection(RUE_NEUVE_1),
  'Korenmarkt 7, Gent': collection(KORENMARKT_POI),
  Genk: collection(LIMBURG, GENT, GENK),
};

describe('Photon adapter against a well-behaved Photon', () => {
  const seen: SeenRequest[] = [];
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    ({ server, baseUrl } = await startServer((req, res, url) => {
      seen.push(seenRequest(req, url));
      if (url.pathname === '/api') return json(res, 200, SEARCHES[url.searchParams.get('q') ?? ''] ?? collection());
      if (url.pathname === '/reverse') {
        const lat = Number(url.searchParams.get('lat'));
        return json(res, 200, lat > 55 ? collection() : lat > 51 ? collection(GENT) : collection(RUE_NEUVE_1));
      }
      json(res, 404, { message: 'Not found' });
    }));
  });
  afterAll(() => stopServer(server));

  const geocoder = () => createPhotonGeocoder({ baseUrl, timeoutMs: 5_000, userAgent: 'svc-api/9.9.9 (+https://svc.example/docs)' });

  it('asks /api for ten candidates, identifying itself', async () => {
    await geocoder().search('Genk', 1);
    expect(seen.at(-1)!.path).toBe('/api');
    expect(Object.fromEntries(seen.at(-1)!.params)).toEqual({ q: 'Genk', limit: '10' });
    expect(seen.at(-1)!.userAgent).toBe('svc-api/9.9.9 (+https://svc.example/docs)');
  });

  it('drops the result that contradicts the query and keeps the right street', async () => {
    expect(await geocoder().search('Place Saint-Lambert 1, 4000 Liège', 5)).toEqual([
      // The street, at the relevance of a street answering an asked house number (HOUSE_ANSWER_FACTOR.street).
      { address: 'Place Saint-Lambert, 4000 Liège', lat: 50.6455368, lon: 5.5738287, relevance: 0.75, kind: 'street' },
    ]);
  });

  it('reads houses, including a named point of interest, from their structured address', async () => {
    expect(await geocoder().search('Rue Neuve 1, 1000 Bruxelles', 5)).toEqual([
      { address: 'Rue Neuve 1, 1000 Bruxelles', lat: 50.8508291, lon: 4.3559134, relevance: 1, kind: 'address' },
    ]);
    expect(await geocoder().search('Korenmarkt 7, Gent', 5)).toEqual([
      { address: 'Korenmarkt 7, 9000 Gent', lat: 51.0547, lon: 3.7216, relevance: 0.967, kind: 'address' },
    ]);
  });

  it('keeps only the city the query names: Genk, not Gent, and no county', async () => {
    expect(await geocoder().search('Genk', 5)).toEqual([
      { address: '3600 Genk', lat: 50.9658, lon: 5.5001, relevance: 0.933, kind: 'municipality' },
    ]);
  });

  it('reverse-geocodes with a 150 m radius to a street-level label, else to nothing', async () => {
    expect(await geocoder().reverse(50.8509, 4.356)).toBe('Rue Neuve 1, 1000 Bruxelles');
    expect(Object.fromEntries(seen.at(-1)!.params)).toEqual({ lat: '50.8509', lon: '4.356', limit: '1', radius: '0.15' });
    expect(await geocoder().reverse(50.86, 4.356)).toBeUndefined(); // 1 km from the house Photon returned
    expect(await geocoder().reverse(51.05, 3.72)).toBeUndefined(); // only a city
    expect(await geocoder().reverse(60, 5)).toBeUndefined(); // no feature
  });
});

describe('Photon adapter: failures are upstream errors', () => {
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    ({ server, baseUrl } = await startServer((_req, res, url) => {
      switch (url.pathname) {
        case '/bad-request/api':
          return json(res, 400, { message: "missing search term 'q': /?q=berlin" });
        case '/server-error/reverse':
          return json(res, 500, { message: 'Internal server error' });
        case '/gateway/api':
          return html(res, 502, '502 Bad Gateway');
        case '/not-collection/api':
          return json(res, 200, { message: 'ok' });
        case '/bad-point/api':
          return json(res, 200, collection({ ...GENK, geometry: { type: 'Point', coordinates: ['5.5', 50.9] } }));
        case '/no-properties/api':
          return json(res, 200, collection({ type: 'Feature', geometry: GENK.geometry }));
        case '/truncated/api':
          return json(res, 200, '{"type":"FeatureCollection","features":[');
        case '/slow/api':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"type":"FeatureCollection",');
          return; // half a body, then silence
      }
      json(res, 404, { message: 'Not found' });
    }));
  });
  afterAll(() => stopServer(server));

  const at = (prefix: string, timeoutMs = 5_000) => createPhotonGeocoder({ baseUrl: `${baseUrl}/${prefix}`, timeoutMs, userAgent: 'test' });
  const message = async (p: Promise<unknown>): Promise<string> => {
    const err = await p.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as Error).message).not.toContain('127.0.0.1');
    return (err as Error).message;
  };

  it("reports Photon's own message for a 400 and a 500, and a proxy page by its status", async () => {
    expect(await message(at('bad-request').search('x', 1))).toBe(
      "The geocoder answered a search with HTTP 400: 'missing search term \\'q\\': /?q=berlin'.",
    );
    expect(await message(at('server-error').reverse(50, 4))).toBe("The geocoder answered a reverse lookup with HTTP 500: 'Internal server error'.");
    expect(await message(at('gateway').search('x', 1))).toBe('The geocoder answered a search with HTTP 502.');
  });

  it('refuses a body that is not a FeatureCollection of points with properties', async () => {
    expect(await message(at('not-collection').search('x', 1))).toMatch(/not a FeatureCollection/);
    expect(await message(at('bad-point').search('x', 1))).toMatch(/feature 0 has no valid point/);
    expect(await message(at('no-properties').search('x', 1))).toMatch(/feature 0 has no properties or geometry/);
    expect(await message(at('truncated').search('x', 1))).toMatch(/malformed JSON/);
  });

  it('gives up after its time-out, even in the middle of the body', async () => {
    expect(await message(at('slow', 150).search('x', 1))).toMatch(/did not answer a search within 150 ms/);
  });
});
