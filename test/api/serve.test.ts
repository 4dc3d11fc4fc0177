import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveCommand } from '../../src/cli/commands/serve.js';
import { geocoderFor } from '../../src/nodes/geocoders.js';
import { loadAllCommands } from '../../src/cli/command-index.js';
import { loadConfig } from '../../src/config.js';
import { json, startServer, stopServer } from '../geocode/support/loopback.js';

describe('svc serve', () => {
  it('is registered with the keys commands', async () => {
    const paths = (await loadAllCommands()).map((c) => c.path.join(' '));
    expect(paths).toEqual(expect.arrayContaining(['serve', 'keys create', 'keys list', 'keys update', 'keys deactivate']));
    expect(serveCommand.usage).toContain('--port');
  });

  it('selects the embedded geocoder by default and the HTTP one for a URL', async () => {
    // A data directory without an address index: the embedded gazetteer.
    const embedded = geocoderFor(loadConfig({ SVC_DATA_DIR: join(tmpdir(), 'svc-no-address-index') }));
    expect(embedded.source).toMatch(/^embedded gazetteer/);
    expect((await embedded.geocoder.search('Grand-Place 1', 1))[0]?.address).toBe('Grand-Place 1, 1000 Bruxelles');
    // Port 9 (discard) refuses connections: the HTTP geocoder reports that as an upstream error.
    const http = geocoderFor(loadConfig({ SVC_GEOCODER: 'http://127.0.0.1:9/geo', SVC_GEOCODER_TIMEOUT_MS: '2000' }));
    expect(http.source).toBe('svc geocoder at http://127.0.0.1:9/geo');
    await expect(http.geocoder.search('Grand-Place 1', 1)).rejects.toMatchObject({ code: 'upstream_error' });
  });

  it('selects the Nominatim or Photon adapter by the prefix of SVC_GEOCODER, sending the configured User-Agent', async () => {
    const seen: string[] = [];
    const { server, baseUrl } = await startServer((req, res, url) => {
      seen.push(`${url.pathname}?${url.searchParams.toString()} ${req.headers['user-agent']}`);
      json(res, 200, url.pathname === '/api' ? { type: 'FeatureCollection', features: [] } : []);
    });
    try {
      const env = { SVC_GEOCODER_USER_AGENT: 'acme/1 (ops@acme.example)' };
      await geocoderFor(loadConfig({ ...env, SVC_GEOCODER: `nominatim:${baseUrl}` })).geocoder.search('Gent', 1);
      await geocoderFor(loadConfig({ ...env, SVC_GEOCODER: `photon:${baseUrl}` })).geocoder.search('Gent', 1);
      expect(seen).toEqual([
        '/search?q=Gent&format=jsonv2&addressdetails=1&limit=10 acme/1 (ops@acme.example)',
        '/api?q=Gent&limit=10 acme/1 (ops@acme.example)',
      ]);
    } finally {
      await stopServer(server);
    }
  });

  it('refuses a bad port before starting anything', async () => {
    await expect(serveCommand.run(['--port', 'http'])).rejects.toThrow('--port');
  });
});
