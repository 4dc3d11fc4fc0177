import { describe, expect, it } from 'vitest';
import { serveCommand, geocoderFor } from '../../src/cli/commands/serve.js';
import { COMMANDS } from '../../src/cli/registry.js';
import { loadConfig } from '../../src/config.js';

describe('svc serve', () => {
  it('is registered with the keys commands', () => {
    const paths = COMMANDS.map((c) => c.path.join(' '));
    expect(paths).toEqual(expect.arrayContaining(['serve', 'keys create', 'keys list', 'keys update', 'keys deactivate']));
    expect(serveCommand.usage).toContain('--port');
  });

  it('selects the embedded geocoder by default and the HTTP one for a URL', async () => {
    const embedded = geocoderFor(loadConfig({}));
    expect((await embedded.search('Grand-Place 1', 1))[0]?.address).toBe('Grand-Place 1, 1000 Bruxelles');
    // Port 9 (discard) refuses connections: the HTTP geocoder reports that as an upstream error.
    const http = geocoderFor(loadConfig({ SVC_GEOCODER: 'http://127.0.0.1:9/geo', SVC_GEOCODER_TIMEOUT_MS: '2000' }));
    await expect(http.search('Grand-Place 1', 1)).rejects.toMatchObject({ code: 'upstream_error' });
  });

  it('refuses a bad port before starting anything', async () => {
    await expect(serveCommand.run(['--port', 'http'])).rejects.toThrow('--port');
  });
});
