/**
 * The published OpenAPI document carries an example for everything a reader needs: each parameter's value, a curl
 * request per operation, the 200 answer and every problem status (bodiless answers and binary tiles have none).
 * Examples are checked against the document's own schemas, and every example request is sent to the service, which
 * must answer it with 200; signed map URLs are taken from a catalog of the running service instead, since the
 * example's signature belongs to another server.
 */
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_JOB_EXAMPLE_ID } from '../../src/reference/examples/example-answers.js';
import { BATCH_JOB_EXAMPLE_ID } from '../../src/reference/examples/batch-examples.js';
import { exampleTarget, OPERATION_EXAMPLES } from '../../src/reference/examples/openapi-examples.js';
import { operations, type JsonSchema, type OpenApiDocument } from '../../src/reference/openapi-types.js';
import { ManualClock } from '../services/support/manual-clock.js';
import { LIVE_T0, liveHarness, startRealModelService, type LiveHarness, type RealModelService } from '../api/live-harness.js';
import { gridFootprint } from '../../src/map/grid-projection.js';
import { tilesCovering } from '../../src/map/web-mercator-tiles.js';
import { SYNTH_SPEC } from '../model-service/synthetic-city.js';

let model: RealModelService;
let h: LiveHarness;
let doc: OpenApiDocument;

beforeAll(async () => {
  const clock = new ManualClock(LIVE_T0);
  model = await startRealModelService(clock);
  h = await liveHarness(model.url, clock);
  const res = await h.app.inject({ url: '/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(async () => {
  await h?.close();
  await model?.close();
});

/** Validation failures of `value` against `schema`, as readable lines. */
function violations(schema: JsonSchema, value: unknown): string[] {
  return [...Value.Errors(schema as never, value)].map((e) => `${(e as { instancePath?: string }).instancePath ?? ''} ${e.message}`);
}

describe('examples in the OpenAPI document', () => {
  it('cover every operation: a value for each parameter, a curl request, the 200 answer and each problem status', () => {
    const ops = operations(doc);
    expect(ops.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort()).toEqual(Object.keys(OPERATION_EXAMPLES).sort());
    for (const { path, op } of ops) {
      for (const p of op.parameters ?? []) expect(p.example, `${path} ${p.name}`).toBeDefined();
      const [sample] = op['x-codeSamples'] ?? [];
      expect(sample?.source, path).toMatch(/^curl -s /);
      for (const [status, response] of Object.entries(op.responses)) {
        const [media] = Object.values(response.content ?? {});
        if (media === undefined) continue; // no body: 204, 304
        if (media.schema?.format === 'binary') continue; // a vector tile
        expect(media?.example, `${path} ${status}`).toBeDefined();
      }
    }
  });

  it('match the schemas they illustrate', () => {
    for (const { path, op } of operations(doc)) {
      for (const p of op.parameters ?? []) expect(violations(p.schema!, p.example), `${path} ${p.name}`).toEqual([]);
      for (const [status, response] of Object.entries(op.responses)) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (media.example === undefined) continue;
          expect(violations(media.schema!, media.example), `${path} ${status} ${type}`).toEqual([]);
        }
      }
    }
  });

  it('give problem types that point at this service’s error catalogue', () => {
    for (const { op } of operations(doc)) {
      for (const response of Object.values(op.responses)) {
        const example = response.content?.['application/problem+json']?.example as { type: string; code: string } | undefined;
        if (example !== undefined) expect(example.type).toBe(`${h.app.docs.url}/errors#${example.code}`);
      }
    }
    expect(doc.externalDocs?.url).toBe(h.app.docs.url);
  });

  it('send requests the service answers with success (the reports examples on a job the example POST creates)', async () => {
    const key = h.issue();
    let jobId: string | undefined;
    const catalog = (await h.app.inject({ url: '/v1/map/brussels', headers: { authorization: `Bearer ${key}` } })).json();
    /** The same request with this server's signature: the catalog's TileJSON URL, or the first tile of its template with data. */
    const signedTarget = async (target: string): Promise<string> => {
      const forecast = target.includes('/tiles/forecast/');
      const layer = /\/tiles\/(?:forecast\/)?([a-z]+)/.exec(target)![1]!;
      const tilejson: string = layer === 'buildings' ? catalog.static.buildings.tilejson
        : (forecast ? catalog.forecast[2] : catalog.live).layers[layer].tilejson;
      if (!target.includes('.mvt')) return tilejson;
      const template: string = (await h.app.inject({ url: tilejson })).json().tiles[0];
      const range = tilesCovering(gridFootprint(SYNTH_SPEC.grid).box, 16);
      for (let x = range.x0; x <= range.x1; x++) {
        for (let y = range.y0; y <= range.y1; y++) {
          const url = new URL(template.replace('{z}', '16').replace('{x}', String(x)).replace('{y}', String(y)));
          if ((await h.app.inject({ url: `${url.pathname}${url.search}` })).statusCode === 200) return `${url.pathname}${url.search}`;
        }
      }
      throw new Error(`No tile with data for ${target}`);
    };
    for (const { path, method, op } of operations(doc)) {
      const ex = OPERATION_EXAMPLES[`${method.toUpperCase()} ${path}`]!;
      const keyed = op.security?.every((s) => Object.keys(s).length > 0) ?? false;
      const signed = op.parameters?.some((p) => p.name === 'sig') ?? false;
      const target = exampleTarget(path, ex);
      const url = signed ? await signedTarget(target) : jobId === undefined ? target : target.replace(REPORT_JOB_EXAMPLE_ID, jobId).replace(BATCH_JOB_EXAMPLE_ID, jobId);
      const res = await h.app.inject({
        method: method.toUpperCase() as 'GET' | 'POST',
        url,
        headers: { ...(keyed ? { authorization: `Bearer ${key}` } : {}), ...(ex.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(ex.body !== undefined ? { payload: JSON.stringify(ex.body) } : {}),
      });
      // A POST that makes a job answers 202; the synchronous batch answers 200.
      const accepted = op.responses['202'] !== undefined;
      expect(res.statusCode, `${path}: ${res.body}`).toBe(accepted ? 202 : 200);
      if (accepted) {
        jobId = res.json().job_id;
        await h.reports.settle();
      }
      // The example request is the curl command's, with the shell variables filled in.
      expect(op['x-codeSamples']![0]!.source).toContain(`"$BASE_URL${target.replace(/^\/v1/, '')}"`);
      if (ex.body !== undefined) expect(op['x-codeSamples']![0]!.source).toContain(`-d '${JSON.stringify(ex.body)}'`);
    }
    expect(jobId).toBeDefined();
  });
});
