import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ValidationError } from '../../src/errors.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('loadConfig', () => {
  it('fills defaults and freezes the result', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      // No docs URL configured: the service documents itself at its own /docs (src/api/docs-location.ts).
      docsUrl: undefined,
      version: pkg.version,
      upstreamTimeoutMs: 30_000,
      limits: { secretPerMin: 600, publishablePerMin: 120, reportsPerDay: 50 },
      geocoder: { kind: 'embedded' },
      modelServiceUrl: undefined,
      computeThreads: availableParallelism(),
      memoryBudgetMb: 512,
      statsResponseCacheMb: undefined,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 72_000,
      tileSecret: undefined,
      publicUrl: undefined,
      mapTileCacheMb: undefined,
      mapSliceCacheMb: undefined,
      mapAnnualCacheMb: undefined,
      logLevel: 'info',
    });
    expect(config.dbFile.endsWith('svc.sqlite')).toBe(true);
    expect(config).toHaveProperty('docsUrl', undefined);
    expect(loadConfig({ SVC_DOCS_URL: '  ' }).docsUrl).toBeUndefined();
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.limits)).toBe(true);
  });

  it('reads SVC_* variables', () => {
    const config = loadConfig({
      SVC_PORT: '9000', SVC_HOST: '0.0.0.0', SVC_DATA_DIR: '/srv/data', SVC_DOCS_URL: 'https://api.example.be/docs/',
      SVC_UPSTREAM_TIMEOUT_MS: '5000', SVC_RATE_SK_PER_MIN: '100', SVC_RATE_PK_PER_MIN: '10', SVC_REPORTS_PER_DAY: '3',
      SVC_GEOCODER: 'https://geo.example/v1', SVC_GEOCODER_TIMEOUT_MS: '1500', SVC_MODEL_SERVICE_URL: 'http://127.0.0.1:7000',
      SVC_COMPUTE_THREADS: '3', SVC_LOG_LEVEL: 'warn', SVC_STATS_RESPONSE_CACHE_MB: '0',
      SVC_HEADERS_TIMEOUT_MS: '2000', SVC_REQUEST_TIMEOUT_MS: '5000', SVC_KEEP_ALIVE_TIMEOUT_MS: '4000',
      SVC_TILE_SECRET: 'a secret of forty characters, give or take', SVC_PUBLIC_URL: 'https://maps.example.be/api/',
      SVC_MAP_TILE_CACHE_MB: '16', SVC_MAP_SLICE_CACHE_MB: '32', SVC_MAP_ANNUAL_CACHE_MB: '8',
    });
    expect(config).toMatchObject({
      port: 9000, host: '0.0.0.0', dataDir: '/srv/data', dbFile: '/srv/data/svc.sqlite', docsUrl: 'https://api.example.be/docs',
      upstreamTimeoutMs: 5000, limits: { secretPerMin: 100, publishablePerMin: 10, reportsPerDay: 3 },
      geocoder: { kind: 'svc', url: 'https://geo.example/v1', timeoutMs: 1500, userAgent: `svc-api/${pkg.version} (+https://api.example.be/docs)` },
      modelServiceUrl: 'http://127.0.0.1:7000',
      computeThreads: 3, logLevel: 'warn', statsResponseCacheMb: 0,
      headersTimeoutMs: 2000, requestTimeoutMs: 5000, keepAliveTimeoutMs: 4000,
      tileSecret: 'a secret of forty characters, give or take', publicUrl: 'https://maps.example.be/api', mapTileCacheMb: 16, mapSliceCacheMb: 32,
      mapAnnualCacheMb: 8,
    });
  });

  it('never repeats the tile secret in an error', () => {
    const err = (() => {
      try {
        loadConfig({ SVC_TILE_SECRET: 'too-short-secret' });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err).toBeInstanceOf(ValidationError);
    expect(err!.message).toContain('SVC_TILE_SECRET');
    expect(err!.message).not.toContain('too-short-secret');
  });

  it('selects the HTTP geocoder API by prefix: svc (or a bare URL), nominatim, photon', () => {
    // Without SVC_DOCS_URL the docs are the server's own (a local address): the User-Agent names only the service.
    const ua = `svc-api/${pkg.version}`;
    expect(loadConfig({ SVC_GEOCODER: 'svc:http://127.0.0.1:7001/' }).geocoder).toEqual({
      kind: 'svc', url: 'http://127.0.0.1:7001', timeoutMs: 5000, userAgent: ua,
    });
    expect(loadConfig({ SVC_GEOCODER: 'nominatim:https://nominatim.example.org' }).geocoder).toEqual({
      kind: 'nominatim', url: 'https://nominatim.example.org', timeoutMs: 5000, userAgent: ua,
    });
    expect(
      loadConfig({ SVC_GEOCODER: 'Photon:http://10.0.0.5:2322', SVC_GEOCODER_USER_AGENT: 'acme-air/2 (ops@acme.example)' }).geocoder,
    ).toEqual({ kind: 'photon', url: 'http://10.0.0.5:2322', timeoutMs: 5000, userAgent: 'acme-air/2 (ops@acme.example)' });
    expect(loadConfig({ SVC_GEOCODER: 'photon:http://h', SVC_DOCS_URL: 'https://api.example.be/docs/' }).geocoder)
      .toMatchObject({ userAgent: `svc-api/${pkg.version} (+https://api.example.be/docs)` });
    expect(Object.isFrozen(loadConfig({ SVC_GEOCODER: 'photon:http://h' }).geocoder)).toBe(true);
  });

  it('applies overrides after the environment, ignoring undefined ones', () => {
    const config = loadConfig({ SVC_PORT: '9000' }, { port: undefined, host: 'localhost', limits: { reportsPerDay: 7 } });
    expect(config.port).toBe(9000);
    expect(config.host).toBe('localhost');
    expect(config.limits).toEqual({ secretPerMin: 600, publishablePerMin: 120, reportsPerDay: 7 });
  });

  it('reads the reports variables; the reports directory defaults to reports/ under the data directory', () => {
    expect(loadConfig({ SVC_DATA_DIR: '/srv/data' })).toMatchObject({
      reportsDir: '/srv/data/reports', reportConcurrency: 2, reportRenderThreads: 1, reportMaxAttempts: 5, reportPdfWaitMs: 1_000,
    });
    expect(loadConfig({
      SVC_REPORTS_DIR: '/var/lib/svc/reports', SVC_REPORT_CONCURRENCY: '4', SVC_REPORT_RENDER_THREADS: '2',
      SVC_REPORT_MAX_ATTEMPTS: '1', SVC_REPORT_PDF_WAIT_MS: '0',
    })).toMatchObject({ reportsDir: '/var/lib/svc/reports', reportConcurrency: 4, reportRenderThreads: 2, reportMaxAttempts: 1, reportPdfWaitMs: 0 });
    expect(loadConfig({}, { dataDir: '/tmp/x' }).reportsDir).toBe('/tmp/x/reports');
  });

  it('resolves a relative data directory and puts the default database in it', () => {
    const config = loadConfig({}, { dataDir: 'some/rel' });
    expect(config.dataDir).toBe(resolve('some/rel'));
    expect(config.dbFile).toBe(join(resolve('some/rel'), 'svc.sqlite'));
  });

  it.each([
    [{ SVC_PORT: 'eighty' }, 'SVC_PORT'],
    [{ SVC_PORT: '70000' }, 'SVC_PORT'],
    [{ SVC_DOCS_URL: 'svc.example/docs' }, 'SVC_DOCS_URL'],
    [{ SVC_DOCS_URL: 'https://svc.example/docs#x' }, 'SVC_DOCS_URL'],
    [{ SVC_UPSTREAM_TIMEOUT_MS: '0' }, 'SVC_UPSTREAM_TIMEOUT_MS'],
    [{ SVC_RATE_SK_PER_MIN: '-1' }, 'SVC_RATE_SK_PER_MIN'],
    [{ SVC_GEOCODER: 'ftp://geo' }, 'SVC_GEOCODER'],
    [{ SVC_GEOCODER: 'pelias:https://geo.example' }, 'SVC_GEOCODER'],
    [{ SVC_GEOCODER: 'nominatim:' }, 'SVC_GEOCODER'],
    [{ SVC_GEOCODER: 'nominatim:https://geo.example?key=1' }, 'SVC_GEOCODER'],
    [{ SVC_GEOCODER: 'photon:https://geo', SVC_GEOCODER_TIMEOUT_MS: '0' }, 'SVC_GEOCODER_TIMEOUT_MS'],
    [{ SVC_GEOCODER: 'photon:https://geo', SVC_GEOCODER_USER_AGENT: 'caf\u00e9/1' }, 'SVC_GEOCODER_USER_AGENT'],
    [{ SVC_MODEL_SERVICE_URL: 'nope' }, 'SVC_MODEL_SERVICE_URL'],
    [{ SVC_COMPUTE_THREADS: '0' }, 'SVC_COMPUTE_THREADS'],
    [{ SVC_LOG_LEVEL: 'loud' }, 'SVC_LOG_LEVEL'],
    [{ SVC_STATS_RESPONSE_CACHE_MB: '-1' }, 'SVC_STATS_RESPONSE_CACHE_MB'],
    [{ SVC_STATS_RESPONSE_CACHE_MB: '1.5' }, 'SVC_STATS_RESPONSE_CACHE_MB'],
    // 0 would mean "no time-out" to Node: a silent client could hold a connection forever.
    [{ SVC_HEADERS_TIMEOUT_MS: '0' }, 'SVC_HEADERS_TIMEOUT_MS'],
    [{ SVC_REQUEST_TIMEOUT_MS: '0' }, 'SVC_REQUEST_TIMEOUT_MS'],
    [{ SVC_KEEP_ALIVE_TIMEOUT_MS: '0' }, 'SVC_KEEP_ALIVE_TIMEOUT_MS'],
    [{ SVC_TILE_SECRET: 'x'.repeat(31) }, 'SVC_TILE_SECRET'],
    [{ SVC_TILE_SECRET: `${'x'.repeat(31)}\u00e9` }, 'SVC_TILE_SECRET'],
    [{ SVC_PUBLIC_URL: 'maps.example.be' }, 'SVC_PUBLIC_URL'],
    [{ SVC_PUBLIC_URL: 'https://maps.example.be/?a=1' }, 'SVC_PUBLIC_URL'],
    [{ SVC_MAP_TILE_CACHE_MB: '0' }, 'SVC_MAP_TILE_CACHE_MB'],
    [{ SVC_MAP_SLICE_CACHE_MB: 'lots' }, 'SVC_MAP_SLICE_CACHE_MB'],
    [{ SVC_HEADERS_TIMEOUT_MS: '20000', SVC_REQUEST_TIMEOUT_MS: '10000' }, 'SVC_HEADERS_TIMEOUT_MS'],
    [{ SVC_REPORT_CONCURRENCY: '0' }, 'SVC_REPORT_CONCURRENCY'],
    [{ SVC_REPORT_RENDER_THREADS: '65' }, 'SVC_REPORT_RENDER_THREADS'],
    [{ SVC_REPORT_MAX_ATTEMPTS: '0' }, 'SVC_REPORT_MAX_ATTEMPTS'],
    [{ SVC_REPORT_PDF_WAIT_MS: '-1' }, 'SVC_REPORT_PDF_WAIT_MS'],
    [{ SVC_REPORT_PDF_WAIT_MS: '60001' }, 'SVC_REPORT_PDF_WAIT_MS'],
  ])('rejects %j naming the variable', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ValidationError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});
