/**
 * Keeps the one error catalogue (src/api/problems.ts), docs/errors.md, the served `{docs_url}/errors` page and the
 * OpenAPI document in step, and checks the catalogue against the spec's titles and per-endpoint error lists.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM_CODES, PROBLEMS, problemType } from '../../src/api/problems.js';
import { ERROR_CODES } from '../../src/errors.js';
import { harness, type Harness } from './support/harness.js';
import { reportsHarness } from './support/reports-harness.js';

/** Titles exactly as the spec gives them. */
const SPEC_TITLES: Record<string, string> = {
  validation_error: 'Validation error',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  outside_coverage: 'Outside coverage area',
  product_unavailable: 'Product unavailable here',
  rate_limited: 'Rate limit exceeded',
  quota_exceeded: 'Daily report quota exceeded',
  upstream_error: 'Upstream error',
  upstream_timeout: 'Upstream timeout',
};

/** Statuses of the spec's Errors table. */
const SPEC_STATUSES: Record<string, number> = {
  validation_error: 400, unauthorized: 401, url_expired: 401, forbidden: 403, not_found: 404, outside_coverage: 422,
  product_unavailable: 422, rate_limited: 429, quota_exceeded: 429, upstream_error: 502, upstream_unavailable: 503, upstream_timeout: 504,
};

/** Per-endpoint error lists of the spec (historical adds product_unavailable from its rule 6). */
const SPEC_ENDPOINT_ERRORS: Record<string, string[]> = {
  '/v1/cities/{city}': ['not_found'],
  '/v1/scales': ['validation_error'],
  '/v1/scales/{scale}': ['not_found'],
  '/v1/key': ['unauthorized', 'forbidden'],
  '/v1/geocode': ['validation_error', 'unauthorized', 'forbidden', 'rate_limited', 'upstream_error'],
  '/v1/historical/stats': ['validation_error', 'unauthorized', 'forbidden', 'outside_coverage', 'product_unavailable', 'rate_limited', 'upstream_error', 'upstream_timeout'],
};

/**
 * Reports, by method and path: the spec's lists, without the codes no answer can carry (docs/api.md, reports: POST
 * never waits for the compute back end, so no 504; a status poll never fails on the PDF, so no 502 or 504), with
 * product_unavailable (a city modelling none of the key's metrics) and the body's 413 and 415.
 */
const REPORT_ENDPOINT_ERRORS: Record<string, string[]> = {
  'POST /v1/reports': ['validation_error', 'unauthorized', 'forbidden', 'payload_too_large', 'unsupported_media_type', 'outside_coverage', 'product_unavailable', 'rate_limited', 'quota_exceeded', 'upstream_error'],
  'GET /v1/reports/{job_id}': ['validation_error', 'unauthorized', 'forbidden', 'not_found', 'rate_limited'],
  'GET /v1/reports/{job_id}/download': ['validation_error', 'unauthorized', 'forbidden', 'not_found', 'rate_limited'],
};

let h: Harness;
let openapi: { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: { properties: { code: { enum: string[] } } } }> }> }>> };
beforeAll(async () => {
  h = await reportsHarness({ start: false });
  openapi = (await h.app.inject({ url: '/v1/openapi.json' })).json();
});
afterAll(async () => h.close());

describe('the catalogue', () => {
  it('uses the spec titles and statuses', () => {
    for (const [code, title] of Object.entries(SPEC_TITLES)) expect(PROBLEMS[code as keyof typeof PROBLEMS].title).toBe(title);
    for (const [code, status] of Object.entries(SPEC_STATUSES)) expect(PROBLEMS[code as keyof typeof PROBLEMS].status).toBe(status);
  });

  it('covers every error code of the service except the internal dataset_error and dataset_damaged', () => {
    const internal = ['dataset_error', 'dataset_damaged'];
    for (const code of ERROR_CODES) if (!internal.includes(code)) expect(PROBLEM_CODES).toContain(code);
    for (const code of internal) expect(PROBLEM_CODES).not.toContain(code);
  });
});

describe('docs/errors.md', () => {
  it('lists exactly the catalogue, in its order, with the same status and title', () => {
    const text = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const rows = [...text.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \| ([^|]+) \|/gm)].map((m) => [m[1], Number(m[2]), m[3]!.trim()]);
    expect(rows).toEqual(PROBLEM_CODES.map((code) => [code, PROBLEMS[code].status, PROBLEMS[code].title]));
  });
});

describe('the served errors page', () => {
  it('has an anchor for every code, at the URL each problem type names', async () => {
    for (const code of PROBLEM_CODES) {
      const type = new URL(problemType(h.app.docs.url, code));
      expect(type.hash).toBe(`#${code}`);
      const page = await h.app.inject({ url: type.pathname });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain(`id="${code}"`);
    }
  });

  it('serves the API reference at the docs path', async () => {
    const page = await h.app.inject({ url: new URL(h.app.docs.url).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('/v1/openapi.json');
  });

  it('follows a configured docs URL', async () => {
    const other = await harness({ config: { docsUrl: 'https://api.example.be/reference/v1-docs' } });
    try {
      const res = await other.app.inject({ url: '/v1/cities/atlantis' });
      expect(res.json().type).toBe('https://api.example.be/reference/v1-docs/errors#not_found');
      expect((await other.app.inject({ url: '/reference/v1-docs/errors' })).body).toContain('id="not_found"');
    } finally {
      await other.close();
    }
  });
});

describe('the OpenAPI document', () => {
  it('documents each endpoint’s spec errors under the catalogue status', () => {
    for (const [path, codes] of Object.entries(SPEC_ENDPOINT_ERRORS)) {
      const responses = openapi.paths[path]!.get!.responses;
      for (const code of codes) {
        const status = String(PROBLEMS[code as keyof typeof PROBLEMS].status);
        const documented = responses[status]?.content?.['application/problem+json']?.schema.properties.code.enum;
        expect(documented, `${path} ${code}`).toContain(code);
      }
    }
  });

  it('documents exactly the errors each reports endpoint can answer', () => {
    for (const [endpoint, codes] of Object.entries(REPORT_ENDPOINT_ERRORS)) {
      const [method, path] = endpoint.split(' ') as [string, string];
      const responses = openapi.paths[path]![method.toLowerCase()]!.responses;
      const documented = Object.values(responses).flatMap((r) => r.content?.['application/problem+json']?.schema.properties.code.enum ?? []);
      expect(documented.filter((c) => !['request_timeout', 'headers_too_large'].includes(c)).sort(), endpoint).toEqual([...codes].sort());
    }
  });

  it('documents the problems of the HTTP layer (408, 431) on every operation', () => {
    for (const [path, methods] of Object.entries(openapi.paths)) {
      for (const op of Object.values(methods)) {
        expect(op.responses['408']?.content?.['application/problem+json']?.schema.properties.code.enum, path).toEqual(['request_timeout']);
        expect(op.responses['431']?.content?.['application/problem+json']?.schema.properties.code.enum, path).toEqual(['headers_too_large']);
      }
    }
  });

  it('documents only catalogue codes, each under its own status', () => {
    for (const [path, methods] of Object.entries(openapi.paths)) {
      for (const op of Object.values(methods)) {
        for (const [status, response] of Object.entries(op.responses)) {
          const codes = response.content?.['application/problem+json']?.schema.properties.code.enum ?? [];
          for (const code of codes) expect(String(PROBLEMS[code as keyof typeof PROBLEMS].status), `${path} ${status} ${code}`).toBe(status);
        }
      }
    }
  });
});
