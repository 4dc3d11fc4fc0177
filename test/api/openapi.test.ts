import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRICS_PATTERN } from '../../src/api/schemas/historical.js';
import { harness, type Harness } from './support/harness.js';

type Operation = { security?: Record<string, string[]>[]; parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[]; responses: Record<string, { description: string; headers?: Record<string, unknown> }> };

let h: Harness;
let doc: { openapi: string; info: { version: string }; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown> } };
beforeAll(async () => {
  h = await harness();
  const res = await h.app.inject({ url: '/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(async () => h.close());

const op = (path: string) => doc.paths[path]!.get!;

describe('GET /v1/openapi.json', () => {
  it('is OpenAPI 3.1 for the running version with both security schemes', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe(h.config.version);
    expect(doc.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    });
  });

  it('describes every endpoint under /v1 and nothing else', () => {
    for (const path of ['/v1/health', '/v1/cities', '/v1/cities/{city}', '/v1/scales', '/v1/scales/{scale}', '/v1/key', '/v1/geocode', '/v1/historical/stats']) {
      expect(doc.paths[path]?.get, path).toBeDefined();
    }
    for (const path of Object.keys(doc.paths)) expect(path.startsWith('/v1/')).toBe(true);
    expect(doc.paths).not.toHaveProperty('/v1/openapi.json');
  });

  it('requires a key exactly on keyed endpoints', () => {
    for (const path of ['/v1/key', '/v1/geocode', '/v1/historical/stats']) {
      expect(op(path).security).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }]);
      expect(Object.keys(op(path).responses['200']!.headers ?? {})).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']));
    }
    // Public endpoints declare that they need nothing: an empty list of requirements.
    for (const path of ['/v1/health', '/v1/scales', '/v1/scales/{scale}']) expect(op(path).security).toEqual([]);
    expect(op('/v1/cities').security).toContainEqual({});
  });

  it('carries the parameter rules of the spec', () => {
    const params = (path: string) => Object.fromEntries((op(path).parameters ?? []).map((p) => [p.name, p]));
    const hist = params('/v1/historical/stats');
    expect(hist.radius!.schema).toMatchObject({ type: 'number', minimum: 5, maximum: 50 });
    // Only decimal notation is accepted (src/api/decimal-numbers.ts), but the parameters stay numbers.
    expect(hist.lat!.schema).toMatchObject({ type: 'number', minimum: -90, maximum: 90 });
    expect(hist.lon!.schema).toMatchObject({ type: 'number', minimum: -180, maximum: 180 });
    expect(hist.metrics!.schema).toMatchObject({ pattern: METRICS_PATTERN });
    expect(METRICS_PATTERN).toBe('^(air|wind|thermal)(,(air|wind|thermal)){0,2}$');
    expect(Object.values(hist).every((p) => !p.required)).toBe(true);
    const geo = params('/v1/geocode');
    expect(geo.q).toMatchObject({ required: true, schema: { minLength: 1 } });
    expect(geo.limit!.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 5, default: 5 });
    expect(params('/v1/scales').metric!.schema).toMatchObject({ enum: ['air', 'wind', 'thermal'] });
    expect(params('/v1/cities').product!.schema).toMatchObject({ enum: ['geocode', 'historical', 'realtime', 'forecast', 'reports', 'map'] });
  });

  it('limits meta.dataset of statistics to the spec\'s two datasets', () => {
    const ok = op('/v1/historical/stats').responses['200'] as unknown as {
      content: Record<string, { schema: { properties: { meta: { properties: { dataset: { enum: string[]; description: string } } } } } }>;
    };
    const dataset = ok.content['application/json']!.schema.properties.meta.properties.dataset;
    expect(dataset.enum).toEqual(['brussels_extended', 'belgium_lowres']);
    expect(dataset.description).not.toMatch(/another city/);
  });

  it('documents the scales ETag and 304, and X-Cache on statistics', () => {
    expect(op('/v1/scales').responses).toHaveProperty('304');
    expect(op('/v1/scales').responses['200']!.headers).toHaveProperty('ETag');
    expect(op('/v1/historical/stats').responses['200']!.headers).toHaveProperty('X-Cache');
  });
});
