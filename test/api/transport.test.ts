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

describe('client input in problem details', () => {
  const unsafe = /[<>\u0000-\u001f]/;

  it('is quoted, escaped and shortened in 404 and 405 details', async () => {
    // The path as it arrived (percent-encoded by the client), inside quotes.
    const markup = expectProblem(await h.app.inject({ url: '/v1/<script>alert(1)</script>' }), 'not_found');
    expect(markup.detail).toBe("No resource at '/v1/%3Cscript%3Ealert(1)%3C/script%3E'.");
    const long = expectProblem(await h.app.inject({ url: `/v1/${'a'.repeat(5_000)}` }), 'not_found');
    expect(long.detail.length).toBeLessThan(100);
    expect(long.detail).toContain('…');
    const wrong = expectProblem(await h.app.inject({ method: 'DELETE', url: '/v1/cities/%3Cb%3E' }), 'method_not_allowed');
    expect(wrong.detail).toBe("DELETE is not allowed on '/v1/cities/%3Cb%3E'; allowed: GET, HEAD, OPTIONS.");
  });

  it('is quoted in the details of unknown cities and scales, addresses and origins', async () => {
    for (const url of ['/v1/cities/%3Cimg%20src%3Dx%3E%00', '/v1/scales/%3Cimg%20src%3Dx%3E%0d%0a']) {
      const body = expectProblem(await h.app.inject({ url }), 'not_found');
      expect(body.detail).not.toMatch(unsafe);
      expect(body.detail).toMatch(/^No (city|scale) '\\u003cimg src=x\\u003e(\\u0000|\\r\\n)'/);
    }
    const key = h.issue();
    const address = expectProblem(await h.app.inject({ url: '/v1/historical/stats?address=%3Cscript%3Ezz%3C%2Fscript%3E', headers: { 'x-api-key': key } }), 'outside_coverage');
    expect(address.detail).toMatch(/^The address '\\u003cscript\\u003ezz\\u003c\/script\\u003e' was not recognised/);
    expect(address.detail).not.toMatch(unsafe);
    const pk = h.issue({ type: 'pk', origins: ['https://app.example.org'] });
    const origin = expectProblem(await h.app.inject({ url: '/v1/key', headers: { 'x-api-key': pk, origin: 'https://"><svg onload=x>' } }), 'forbidden');
    expect(origin.detail).not.toMatch(unsafe);
    expect(origin.detail).toContain('\\u003csvg');
  });

  it('never repeats a key-shaped text', async () => {
    const body = expectProblem(await h.app.inject({ url: `/v1/cities/svc_sk_${'x'.repeat(32)}` }), 'not_found');
    expect(body.detail).toBe("No city '[redacted]'; GET /v1/cities lists them.");
  });
});

describe('X-Content-Type-Options', () => {
  it('is nosniff on every answer: data, problems, routing errors, preflights, docs pages', async () => {
    const answers = [
      await h.app.inject({ url: '/v1/health' }),
      await h.app.inject({ url: '/v1/nope' }),
      await h.app.inject({ url: '/v1/cities/%E0%A4%A' }),
      await h.app.inject({ method: 'OPTIONS', url: '/v1/key', headers: { origin: 'https://a.example', 'access-control-request-method': 'GET' } }),
      await h.app.inject({ url: '/docs/errors' }),
      await h.app.inject({ url: '/v1/test/fault' }),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([200, 404, 400, 204, 200, 500]);
    for (const res of answers) expect(res.headers['x-content-type-options']).toBe('nosniff');
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
