/**
 * The documentation pages served at /docs: the API reference rendered from the published OpenAPI document must show
 * every path, parameter, response, body field, problem code and example request, and the pages and their one asset
 * must work offline: nothing but the service's own URLs, no script, every link answered by the service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../src/reference/openapi-types.js';
import { operations } from '../../src/reference/openapi-types.js';
import { PROBLEM_CODES } from '../../src/api/problems.js';
import { openApiHarness, type LiveHarness } from '../api/live-harness.js';

let h: LiveHarness;
let doc: OpenApiDocument;
let reference: string;
let errors: string;
let css: string;

beforeAll(async () => {
  // Every endpoint, live ones included.
  ({ h, doc } = await openApiHarness());
  const page = await h.app.inject({ url: '/docs' });
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  reference = page.body;
  errors = (await h.app.inject({ url: '/docs/errors' })).body;
  const href = /<link rel="stylesheet" href="([^"]+)"/.exec(reference)![1]!;
  const sheet = await h.app.inject({ url: href.replace(/&amp;/g, '&') });
  expect(sheet.statusCode).toBe(200);
  expect(sheet.headers['content-type']).toBe('text/css; charset=utf-8');
  css = sheet.body;
});
afterAll(async () => h.close());

const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The HTML of one operation's section. */
function section(id: string): string {
  const start = reference.indexOf(`<section class="op" id="${id}">`);
  expect(start, id).toBeGreaterThan(-1);
  return reference.slice(start, reference.indexOf('</section>', start));
}

describe('the API reference page', () => {
  it('shows every operation of the OpenAPI document with its path, parameters, responses and example request', () => {
    const ops = operations(doc);
    expect(ops.map((o) => o.path)).toEqual(expect.arrayContaining(Object.keys(doc.paths)));
    expect(ops.length).toBeGreaterThanOrEqual(10);
    for (const { id, path, method, op } of ops) {
      const html = section(id);
      expect(html).toContain(`<code>${escaped(path)}</code>`);
      expect(html).toContain(`method-${method}`);
      expect(reference).toContain(`href="#${id}"`); // in the navigation
      for (const p of op.parameters ?? []) expect(html, `${path} ${p.name}`).toContain(`<code class="field-name">${p.name}</code>`);
      for (const [status, response] of Object.entries(op.responses)) {
        expect(html, `${path} ${status}`).toContain(`>${status}</span>`);
        const codes = (response.content?.['application/problem+json']?.schema?.properties?.code?.enum ?? []) as string[];
        for (const code of codes) expect(html).toContain(`href="/docs/errors#${code}"`);
        const body = response.content?.['application/json']?.schema;
        for (const field of Object.keys(body?.properties ?? {})) expect(html, `${path} ${field}`).toContain(`<code class="field-name">${field}</code>`);
      }
      const samples = op['x-codeSamples'] ?? [];
      expect(samples.length, path).toBeGreaterThan(0);
      for (const sample of samples) expect(html).toContain(escaped(sample.source));
    }
  });

  it('names this server as the base URL of the examples', () => {
    expect(reference).toContain('export BASE_URL=http://127.0.0.1:8080/v1');
  });

  it('uses no external resource: no script, no URL but the service’s own', () => {
    const own = new URL(h.app.docs.url).origin;
    for (const [name, text] of [['reference', reference], ['errors', errors], ['stylesheet', css]] as const) {
      expect(text, name).not.toMatch(/<script|@import|<iframe|<img/i);
      const absolute = [...text.matchAll(/(?:https?:)?\/\/[a-z0-9.[\]:-]+/gi)].map((m) => m[0]);
      for (const url of absolute) expect(url.startsWith('//') ? url : new URL(url).origin, `${name}: ${url}`).toBe(own);
      for (const m of text.matchAll(/url\(([^)]*)\)/g)) expect(m[1], name).toMatch(/^["']?data:/);
    }
  });

  it('links only to anchors it has and to pages the service answers', async () => {
    for (const [name, html] of [['reference', reference], ['errors', errors]] as const) {
      const ids = new Set([...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));
      for (const m of html.matchAll(/ (?:href|src)="([^"]+)"/g)) {
        const target = m[1]!.replace(/&amp;/g, '&');
        if (target.startsWith('data:')) continue;
        if (target.startsWith('#')) {
          expect(ids.has(target.slice(1)), `${name} ${target}`).toBe(true);
          continue;
        }
        const url = new URL(target, h.app.docs.url);
        expect(url.origin, `${name} ${target}`).toBe(new URL(h.app.docs.url).origin);
        const res = await h.app.inject({ url: `${url.pathname}${url.search}` });
        expect(res.statusCode, `${name} ${target}`).toBe(200);
        if (url.hash !== '') expect(res.body, `${name} ${target}`).toContain(`id="${url.hash.slice(1)}"`);
      }
    }
  });
});

describe('the errors page', () => {
  it('has every code with its anchor and the endpoints that answer it', () => {
    for (const code of PROBLEM_CODES) expect(errors).toContain(`<section class="error-entry" id="${code}">`);
    expect(errors).toMatch(/id="forbidden">[\s\S]*?href="\/docs#get-v1-historical-stats"/);
    expect(errors).toContain('http://127.0.0.1:8080/docs/errors#&lt;code&gt;');
  });
});
