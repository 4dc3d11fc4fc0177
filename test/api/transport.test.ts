import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DamagedDataError, DatasetError, errorFromData, errorToData } from '../../src/errors.js';
import { harness, type Harness } from './support/harness.js';
import { expectProblem, UUID_V4 } from './support/problem.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({
    config: { bodyLimitBytes: 2048 },
    beforeReady: (app) => {
      // Routes only these tests have: a body-accepting endpoint and two faults of the service itself.
      app.post('/v1/test/echo', async (request) => ({ got: request.body }));
      app.get('/v1/test/fault', async () => {
        throw new Error('connection string postgres://admin:hunter2@db');
      });
      app.get('/v1/test/dataset-fault', async () => {
        throw new DatasetError('chunk 3.4 of /data/brussels_extended/no2 is truncated');
      });
      app.get('/v1/test/damaged', async () => {
        // As it arrives from a compute thread: rebuilt from plain data.
        throw errorFromData(errorToData(new DamagedDataError("Dataset 'ghent' is damaged: chunk no2/0/1/2 is missing.", {
          dataset: 'ghent', path: '/data/ghent/no2/0/1/2',
        })));
      });
    },
  });
});
afterAll(async () => h.close());

describe('request ids', () => {
  it('every response carries a fresh server-made UUID v4; a client-sent one is ignored', async () => {
    const ids = new Set<string>();
    for (const url of ['/v1/health', '/v1/health', '/v1/nope', '/v1/key']) {
      const res = await h.app.inject({ url, headers: { 'x-request-id': 'client-chosen' } });
      expect(res.headers['x-request-id']).toMatch(UUID_V4);
      ids.add(String(res.headers['x-request-id']));
    }
    expect(ids.size).toBe(4);
  });
});

describe('unknown routes and methods', () => {
  it('404 not_found for unknown paths, outside /v1 too', async () => {
    for (const url of ['/v1/nope', '/v2/health', '/', '/v1/health/', '/v1/historical', '/v1/cities/brussels/extra']) {
      expectProblem(await h.app.inject({ url }), 'not_found');
    }
  });

  it('405 method_not_allowed with Allow for known paths', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH'] as const) {
      const res = await h.app.inject({ method, url: '/v1/cities/brussels' });
      expectProblem(res, 'method_not_allowed');
      expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    }
  });

  it('405 even when the body of the wrong method is malformed or huge', async () => {
    const bad = await h.app.inject({ method: 'POST', url: '/v1/health', headers: { 'content-type': 'application/json' }, payload: '{oops' });
    expectProblem(bad, 'method_not_allowed');
    const huge = await h.app.inject({ method: 'POST', url: '/v1/scales', headers: { 'content-type': 'application/json' }, payload: `"${'x'.repeat(5000)}"` });
    expectProblem(huge, 'method_not_allowed');
    expectProblem(await h.app.inject({ method: 'POST', url: '/v1/nope', payload: '{oops', headers: { 'content-type': 'application/json' } }), 'not_found');
  });

  it('HEAD works wherever GET does, without a body', async () => {
    const res = await h.app.inject({ method: 'HEAD', url: '/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });
});

describe('bodies', () => {
  it('accepts valid JSON', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/v1/test/echo', payload: { a: 1 } });
    expect(res.json()).toEqual({ got: { a: 1 } });
  });

  it('400 validation_error for malformed or empty JSON', async () => {
    for (const payload of ['{oops', '', '{"__proto__": {"x": 1}}']) {
      const res = await h.app.inject({ method: 'POST', url: '/v1/test/echo', headers: { 'content-type': 'application/json' }, payload });
      expectProblem(res, 'validation_error');
    }
  });

  it('413 payload_too_large above the body limit', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/v1/test/echo', headers: { 'content-type': 'application/json' }, payload: `"${'x'.repeat(4000)}"` });
    expectProblem(res, 'payload_too_large');
  });

  it('415 unsupported_media_type for other content types', async () => {
    for (const type of ['application/xml', 'multipart/form-data; boundary=x', 'not a media type']) {
      const res = await h.app.inject({ method: 'POST', url: '/v1/test/echo', headers: { 'content-type': type }, payload: '<a/>' });
      expectProblem(res, 'unsupported_media_type');
    }
  });
});

describe('malformed URLs', () => {
  it('400 for bad percent-encoding, 404 for over-long path parameters', async () => {
    expectProblem(await h.app.inject({ url: '/v1/cities/%E0%A4%A' }), 'validation_error');
    expectProblem(await h.app.inject({ url: `/v1/cities/${'a'.repeat(500)}` }), 'not_found');
  });

  it('400 for repeated scalar parameters', async () => {
    expectProblem(await h.app.inject({ url: '/v1/scales?metric=air&metric=wind' }), 'validation_error');
  });
});

describe('faults of the service', () => {
  it('500 internal_error that reveals nothing', async () => {
    for (const url of ['/v1/test/fault', '/v1/test/dataset-fault']) {
      const body = expectProblem(await h.app.inject({ url }), 'internal_error');
      expect(body.detail).not.toMatch(/hunter2|postgres|chunk|\/data/);
    }
  });

  it('damaged data: 502 upstream_error naming the dataset and the chunk (never the path), not promising a retry helps', async () => {
    const body = expectProblem(await h.app.inject({ url: '/v1/test/damaged' }), 'upstream_error');
    expect(body.status).toBe(502);
    expect(body.detail).toBe("Dataset 'ghent' is damaged: chunk no2/0/1/2 is missing. "
      + 'The stored data must be repaired by the operator; retrying will not help until then.');
  });

  it('keeps serving afterwards', async () => {
    expect((await h.app.inject({ url: '/v1/health' })).statusCode).toBe(200);
  });
});
