/**
 * The map product in the OpenAPI document: the spec's error list of each map endpoint under the catalogue's statuses,
 * a key on the catalog only (with rate-limit and X-Cache headers), the tile paths keyless with exp and sig, a binary
 * 200 and a bodiless 204 for tiles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEMS, type ProblemCode } from '../../src/api/problems.js';
import type { OpenApiDocument, OpenApiOperation } from '../../src/reference/openapi-types.js';
import { openApiHarness, type LiveHarness } from '../api/live-harness.js';

let h: LiveHarness;
let doc: OpenApiDocument;
beforeAll(async () => {
  ({ h, doc } = await openApiHarness());
});
afterAll(async () => h.close());

const CATALOG = '/v1/map/{city}';
const TILE_PATHS = [
  '/v1/map/{city}/tiles/{layer}/{timestamp}.json',
  '/v1/map/{city}/tiles/{layer}/{timestamp}/{z}/{x}/{y}.mvt',
  '/v1/map/{city}/tiles/forecast/{layer}/{timestamp}.json',
  '/v1/map/{city}/tiles/forecast/{layer}/{timestamp}/{z}/{x}/{y}.mvt',
  '/v1/map/{city}/tiles/{static}.json',
  '/v1/map/{city}/tiles/{static}/{z}/{x}/{y}.mvt',
];
const op = (path: string): OpenApiOperation => doc.paths[path]!.get!;
const codesAt = (o: OpenApiOperation, code: ProblemCode) =>
  (o.responses[String(PROBLEMS[code].status)]?.content?.['application/problem+json']?.schema?.properties?.code?.enum ?? []) as string[];

describe('the map in the OpenAPI document', () => {
  it('documents the spec\'s errors of the catalog, keyed, with X-Cache', () => {
    const catalog = op(CATALOG);
    for (const code of ['unauthorized', 'forbidden', 'not_found', 'rate_limited', 'upstream_unavailable'] as const) expect(codesAt(catalog, code), code).toContain(code);
    expect(catalog.security).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }]);
    expect(Object.keys(catalog.responses['200']!.headers ?? {})).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-Cache']));
  });

  it('documents the six tile paths keyless, with exp and sig, url_expired and not_found', () => {
    for (const path of TILE_PATHS) {
      const tile = op(path);
      expect(tile.security, path).toEqual([]);
      expect(tile.parameters?.filter((p) => p.in === 'query').map((p) => p.name).sort(), path).toEqual(['exp', 'sig']);
      for (const code of ['url_expired', 'not_found'] as const) expect(codesAt(tile, code), `${path} ${code}`).toContain(code);
      expect(tile.tags).toEqual(['map']);
      if (path.endsWith('.mvt')) {
        expect(Object.keys(tile.responses['200']!.content ?? {})).toEqual(['application/vnd.mapbox-vector-tile']);
        expect(tile.responses['204']!.content).toBeUndefined();
      } else {
        expect(tile.responses['200']!.content?.['application/json']?.schema?.properties).toHaveProperty('vector_layers');
      }
    }
  });
});
