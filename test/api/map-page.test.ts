/**
 * The map page's routes: `/map` redirects to `/map/`, the page carries its Content-Security-Policy, the page's files
 * and the vendored MapLibre are served with their media types and caching headers (304 on a current ETag), the page
 * imports the vendored version it is served with, and every name outside the allow-list (traversal with `..`, encoded
 * separators and dots, hidden or unlisted files, sub-folders) is a 404 problem. The allow-list itself is checked on a
 * folder with a file beside it that must never be reachable.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultMapPageOptions, mapPageCsp, VENDOR_CACHE_CONTROL, vendorPath } from '../../src/api/routes/map-page.js';
import { StaticFolder } from '../../src/api/static-folder.js';
import { PROJECT_ROOT } from '../../src/util/paths.js';
import { ManualClock } from '../services/support/manual-clock.js';
import { LIVE_T0, liveHarness, type LiveHarness } from './live-harness.js';

let h: LiveHarness;
const VERSION = JSON.parse(await readFile(join(PROJECT_ROOT, 'node_modules', 'maplibre-gl', 'package.json'), 'utf8')).version as string;
const VENDOR = vendorPath(VERSION);

beforeAll(async () => {
  // The model service is never asked (port 9 discards): the page's routes need none of it.
  h = await liveHarness('http://127.0.0.1:9', new ManualClock(LIVE_T0));
});
afterAll(async () => h?.close());

const get = (url: string, headers: Record<string, string> = {}) => h.app.inject({ url, headers });

describe('the map page', () => {
  it('pins maplibre-gl exactly and serves the version installed', async () => {
    const manifest = JSON.parse(await readFile(join(PROJECT_ROOT, 'package.json'), 'utf8'));
    expect(manifest.dependencies['maplibre-gl']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.dependencies['maplibre-gl']).toBe(VERSION);
  });

  it('redirects /map to /map/, keeping the query', async () => {
    const res = await get('/map');
    expect(res.statusCode).toBe(308);
    expect(res.headers.location).toBe('/map/');
    expect((await get('/map?x=1')).headers.location).toBe('/map/?x=1');
  });

  it('serves the page without a key, with a strict CSP that still admits the worker, and no-cache with an ETag', async () => {
    const res = await get('/map/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toBe(mapPageCsp(undefined));
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    // The page imports the version served, and names no other origin.
    expect(res.body).toContain(`${VENDOR}/maplibre-gl.css`);
    expect(res.body).not.toContain('%MAPLIBRE%');
    expect(res.body).not.toMatch(/(src|href)="(https?:)?\/\//);
    const again = await get('/map/', { 'if-none-match': String(res.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // index.html under its own name carries the same policy.
    expect((await get('/map/index.html')).headers['content-security-policy']).toBe(csp);
  });

  it('names an API origin other than its own in connect-src only when SVC_PUBLIC_URL says so', () => {
    expect(mapPageCsp('https://api.example.org/base')).toContain("connect-src 'self' https://api.example.org;");
  });

  it('serves its scripts and stylesheet with their media types; the scripts import the vendored library', async () => {
    const main = await get('/map/main.js');
    expect(main.statusCode).toBe(200);
    expect(main.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(main.headers['cache-control']).toBe('no-cache');
    expect(main.body).toContain(`from '${VENDOR}/maplibre-gl.mjs'`);
    const css = await get('/map/map-page.css');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    // No page file refers to another origin.
    for (const name of (await StaticFolder.open(join(PROJECT_ROOT, 'public', 'map'))).names()) {
      expect((await get(`/map/${name}`)).body, name).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    }
  });

  it('serves the whole maplibre-gl dist folder with long caching, the worker beside the library', async () => {
    const lib = await get(`${VENDOR}/maplibre-gl.mjs`);
    expect(lib.statusCode).toBe(200);
    expect(lib.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(lib.headers['cache-control']).toBe(VENDOR_CACHE_CONTROL);
    expect(lib.headers['x-content-type-options']).toBe('nosniff');
    // The library finds its worker next to its own module URL.
    expect(lib.body).toContain('maplibre-gl-worker.mjs');
    expect(lib.body).toContain('import.meta.url');
    const worker = await get(`${VENDOR}/maplibre-gl-worker.mjs`);
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const css = await get(`${VENDOR}/maplibre-gl.css`);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const map = await get(`${VENDOR}/maplibre-gl.mjs.map`);
    expect(map.headers['content-type']).toBe('application/json; charset=utf-8');
    expect((await get(`${VENDOR}/maplibre-gl.mjs`, { 'if-none-match': String(lib.headers.etag) })).statusCode).toBe(304);
    const dist = await StaticFolder.open(defaultMapPageOptions(undefined).vendorDir);
    expect(dist.names()).toEqual(expect.arrayContaining(['maplibre-gl.mjs', 'maplibre-gl-worker.mjs', 'maplibre-gl.css']));
  });

  it('answers every name outside the allow-list with a 404 problem', async () => {
    const attempts = [
      '/map/package.json', '/map/..%2Fpackage.json', '/map/%2e%2e%2fpackage.json', '/map/%2E%2E/package.json',
      '/map/../package.json', '/map/..\\package.json', '/map/.hidden', '/map/main.ts', '/map/vendor/',
      `${VENDOR}/..%2F..%2Fpackage.json`, `${VENDOR}/..%2fpackage.json`, `${VENDOR}/%2e%2e%2fpackage.json`,
      `${VENDOR}/../package.json`, `${VENDOR}/..%5Cpackage.json`, `${VENDOR}/maplibre-gl.d.ts`, `${VENDOR}/`,
      `${VENDOR}/sub/maplibre-gl.mjs`, '/map/vendor/maplibre-gl-0.0.1/maplibre-gl.mjs', `${VENDOR}/maplibre-gl.mjs%00.js`,
      '/map/main.js%2F..%2F..%2Fpackage.json', '/map/%252e%252e%252fpackage.json',
    ];
    for (const url of attempts) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/problem\+json/);
      expect(res.json(), url).toMatchObject({ code: 'not_found', status: 404 });
      expect(res.body, url).not.toContain('"name": "svc-api"');
    }
  });
});

describe('StaticFolder', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-static-'));
    await mkdir(join(dir, 'served', 'nested'), { recursive: true });
    await writeFile(join(dir, 'secret.txt'), 'never served');
    await writeFile(join(dir, 'served', 'a.js'), 'export const a = "%X%";');
    await writeFile(join(dir, 'served', '.env'), 'SECRET=1');
    await writeFile(join(dir, 'served', 'b.exe'), 'binary');
    await writeFile(join(dir, 'served', 'nested', 'c.js'), 'nested');
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('lists only the regular files of known types directly inside the folder, and serves them by exact name', async () => {
    const folder = await StaticFolder.open(join(dir, 'served'), (_name, text) => text.replaceAll('%X%', 'y'));
    expect(folder.names()).toEqual(['a.js']);
    const file = (await folder.get('a.js'))!;
    expect(file.body.toString()).toBe('export const a = "y";');
    expect(file.type).toBe('text/javascript; charset=utf-8');
    expect(file.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    for (const name of ['../secret.txt', '..%2Fsecret.txt', '/etc/passwd', '.env', 'b.exe', 'nested/c.js', 'nested', 'A.JS', '']) {
      expect(await folder.get(name), name).toBeUndefined();
    }
  });

  it('names the folder when it cannot be listed', async () => {
    await expect(StaticFolder.open(join(dir, 'missing'))).rejects.toThrow(/static folder .*missing/);
  });
});
