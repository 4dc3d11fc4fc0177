/**
 * The published OpenAPI document carries an example for everything a reader needs: each parameter's value, a curl
 * request per operation, the 200 answer and every problem status. Examples are checked against the document's own
 * schemas, and every example request is sent to the service, which must answer it with 200.
 */
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_JOB_EXAMPLE_ID } from '../../src/api/example-answers.js';
import { exampleTarget, OPERATION_EXAMPLES } from '../../src/api/openapi-examples.js';
import { operations, type JsonSchema, type OpenApiDocument } from '../../src/api/reference/openapi-types.js';
import { ManualClock } from '../services/support/manual-clock.js';
import { LIVE_T0, liveHarness, startRealModelService, type LiveHarness, type RealModelService } from './live-harness.js';

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
        if (status === '304') continue; // no body
        const [media] = Object.values(response.content ?? {});
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
    for (const { path, method, op } of operations(doc)) {
      const ex = OPERATION_EXAMPLES[`${method.toUpperCase()} ${path}`]!;
      const keyed = op.security?.every((s) => Object.keys(s).length > 0) ?? false;
      const target = exampleTarget(path, ex);
      const res = await h.app.inject({
        method: method.toUpperCase() as 'GET' | 'POST',
        url: jobId === undefined ? target : target.replace(REPORT_JOB_EXAMPLE_ID, jobId),
        headers: { ...(keyed ? { authorization: `Bearer ${key}` } : {}), ...(ex.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(ex.body !== undefined ? { payload: JSON.stringify(ex.body) } : {}),
      });
      expect(res.statusCode, `${path}: ${res.body}`).toBe(method === 'post' ? 202 : 200);
      if (method === 'post') {
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
