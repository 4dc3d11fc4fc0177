/**
 * The address register end to end, over real HTTP: the service as `svc serve` builds it over the fixture datasets
 * with an address index imported from register files in the real format (`svc addresses import`). `/geocode`,
 * `/historical/stats?address=`, `/realtime?address=` and reports find addresses exact to the house number in French
 * and Dutch, answer a missing number only with a registered neighbour under its own number, label a report made
 * from coordinates with the registered address there, and answer hostile queries with a list or a 400, never a 5xx.
 */
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRegister } from '../../src/addresses/register-import.js';
import { presetPlans } from '../../src/model/presets.js';
import { EPERONNIERS_7, HERBES_10, LOI_16, writeTestRegister } from '../addresses/support/register-files.js';
import { fixtureDataDir } from '../helpers/fixtures.js';
import { startE2eServer, type E2eServer } from './support/e2e-server.js';

let e2e: E2eServer;
let dataDir: string;
let key: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'svc-e2e-addresses-'));
  const fixture = await fixtureDataDir();
  for (const plan of presetPlans('fixture')) await symlink(join(fixture, plan.id), join(dataDir, plan.id), 'dir');
  await importRegister(dataDir, await writeTestRegister(dataDir));
  e2e = await startE2eServer({ dataDir });
  key = e2e.issue();
}, 60_000);
afterAll(async () => {
  await e2e?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const q = (text: string) => encodeURIComponent(text);

describe('the address register over HTTP', () => {
  it('geocodes exact to the house number, in the language of the query', async () => {
    expect(e2e.server.geocoderSource).toMatch(/^address register/);
    const fr = await e2e.get(`/v1/geocode?q=${q('Rue de la Loi 16, 1000 Bruxelles')}`, key);
    expect(fr.status, fr.text).toBe(200);
    expect(fr.json.results[0]).toMatchObject({ address: 'Rue de la Loi 16, 1000 Bruxelles', lat: LOI_16.lat, lon: LOI_16.lon });
    const nl = await e2e.get(`/v1/geocode?q=${q('Wetstraat 16 Brussel')}`, key);
    expect(nl.json.results[0]).toMatchObject({ address: 'Wetstraat 16, 1000 Brussel', lat: LOI_16.lat, lon: LOI_16.lon });
    const haute = await e2e.get(`/v1/geocode?q=${q('Rue Haute 100, 1000 Bruxelles')}`, key);
    expect(haute.json.results[0].address).toMatch(/^Rue Haute (98|102), 1000 Bruxelles$/);
  });

  it('answers statistics and live records for an address of the register', async () => {
    const stats = await e2e.get(`/v1/historical/stats?address=${q('Grasmarkt 10, 1000 Brussel')}`, key);
    expect(stats.status, stats.text).toBe(200);
    expect(stats.json.location).toMatchObject({ address: 'Grasmarkt 10, 1000 Brussel', lat: HERBES_10.lat, lon: HERBES_10.lon });
    const live = await e2e.get(`/v1/realtime?address=${q('rue du marche aux herbes 10 bruxelles')}`, key);
    expect(live.status, live.text).toBe(200);
    expect(live.json.location.address).toBe('Rue du Marché aux Herbes 10, 1000 Bruxelles');
  });

  it('refuses, inside the street-level zone, a house the register lacks: street level is no answer there', async () => {
    // The register holds 1 to 7 of Rue des Éperonniers, 20 of Rue de la Violette, and 2-20 and 60-70 of Rue du Lombard.
    for (const address of ['Rue des Éperonniers 40, 1000 Bruxelles', 'Rue de la Violette 40, 1000 Bruxelles', 'Rue du Lombard 40',
      'Rue des Éperonniers 9, 1000 Bruxelles', 'Rue des Éperonniers 11', 'Rue des Éperonniers 7B bus 2', 'Rue des Éperonniers bus 2, 1000 Bruxelles',
      'Rue des Éperonniers, 1000 Bruxelles']) {
      const geo = await e2e.get(`/v1/geocode?q=${q(address)}`, key);
      expect(geo.json.results[0]?.address ?? '', address).not.toMatch(/ [0-9]+[A-Z]?, /);
      for (const path of ['/v1/historical/stats', '/v1/realtime', '/v1/forecast']) {
        const res = await e2e.get(`${path}?address=${q(address)}`, key);
        expect(res.status, `${path} ${address}: ${res.text}`).toBe(422);
        expect(res.json).toMatchObject({ code: 'outside_coverage' });
        expect(res.json.detail).toMatch(/not found at house level: only the street '(Rue des Éperonniers|Rue de la Violette|Rue du Lombard), 1000 Bruxelles'/);
      }
      const report = await e2e.post('/v1/reports', { address }, key);
      expect(report.status, `report ${address}: ${report.text}`).toBe(422);
      expect(report.json.code).toBe('outside_coverage');
    }
    // The street answer ranks below the exact answer's relevance.
    const street = (await e2e.get(`/v1/geocode?q=${q('Rue des Éperonniers 40, 1000 Bruxelles')}`, key)).json.results[0];
    expect(street).toMatchObject({ address: 'Rue des Éperonniers, 1000 Bruxelles', relevance: 0.75 });
  });

  it('answers a house with its box, in Dutch, French or German, with or without a postcode', async () => {
    for (const address of ['Spoormakersstraat 7 bus 2 Brussel', 'Spoormakersstraat 7 bus 2, 1000 Brussel', 'Rue des Éperonniers 7 bte 2, Bruxelles',
      'Rue des Éperonniers 7 boîte 2', 'Rue des Éperonniers 7 b2', 'Rue des Éperonniers 7b2 Bruxelles', 'Spoormakersstraat 7 Briefkasten 2']) {
      const res = await e2e.get(`/v1/historical/stats?address=${q(address)}`, key);
      expect(res.status, `${address}: ${res.text}`).toBe(200);
      expect(res.json.location).toMatchObject({ lat: EPERONNIERS_7.lat, lon: EPERONNIERS_7.lon });
      expect(res.json.meta.dataset).toBe('brussels_extended');
      expect(res.json.location.address).toMatch(/^(Spoormakersstraat|Rue des Éperonniers) 7, 1000 (Brussel|Bruxelles)$/);
    }
  });

  it('labels a report made from coordinates with the registered address there', async () => {
    const accepted = await e2e.post('/v1/reports', { lat: HERBES_10.lat + 2e-5, lon: HERBES_10.lon }, key);
    expect(accepted.status, accepted.text).toBe(202);
    let status = (await e2e.get(accepted.json.links.status, key)).json;
    for (let i = 0; i < 1_500 && status.status !== 'completed'; i++) {
      expect(status.status).not.toBe('failed');
      await new Promise((r) => setTimeout(r, 20));
      status = (await e2e.get(accepted.json.links.status, key)).json;
    }
    expect(status.address).toBe('Rue du Marché aux Herbes 10, 1000 Bruxelles');
  });

  it('answers hostile queries with a list or a 400, never a server error', async () => {
    for (const text of ['"', '*', 'NEAR', 'OR', 'Rue "de la Loi', 'loi* OR haute', "'; DROP TABLE streets; --", '\u0007\u001b', 'a']) {
      const res = await e2e.get(`/v1/geocode?q=${q(text)}`, key);
      expect(res.status, `${text}: ${res.text}`).toBe(200);
      expect(Array.isArray(res.json.results)).toBe(true);
    }
    const long = await e2e.get(`/v1/geocode?q=${q('x'.repeat(10_000))}`, key);
    expect(long.status).toBe(400);
    expect(long.json.code).toBe('validation_error');
  });
});
