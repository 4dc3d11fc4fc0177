/**
 * The docs URL of problem types, the OpenAPI document and the pages: a configured SVC_DOCS_URL wins; by default the
 * service's own /docs, an absolute URL built from the address it listens on (port 0 resolved once it listens).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DocsLocation, selfDocsUrl } from '../../src/api/docs-location.js';
import type { Problem } from '../../src/api/problems.js';
import { harness, type Harness } from './support/harness.js';

describe('selfDocsUrl', () => {
  it.each([
    ['127.0.0.1', 8080, 'http://127.0.0.1:8080/docs'],
    ['localhost', 8080, 'http://localhost:8080/docs'],
    ['svc.internal', 9000, 'http://svc.internal:9000/docs'],
    ['0.0.0.0', 8080, 'http://localhost:8080/docs'],
    ['::', 8080, 'http://localhost:8080/docs'],
    ['[::]', 8080, 'http://localhost:8080/docs'],
    ['::1', 8081, 'http://[::1]:8081/docs'],
    ['[::1]', 8081, 'http://[::1]:8081/docs'],
  ])('names %s:%d as %s', (host, port, url) => {
    expect(selfDocsUrl(host, port)).toBe(url);
    expect(new URL(url).pathname).toBe('/docs');
  });
});

describe('DocsLocation', () => {
  it('prefers the configured URL whatever the server listens on', () => {
    const docs = new DocsLocation('https://api.example.be/reference', { host: '127.0.0.1', port: 8080 }, () => ({ address: '0.0.0.0', family: 'IPv4', port: 4321 }));
    expect(docs.url).toBe('https://api.example.be/reference');
    expect(docs.path).toBe('/reference');
    expect(docs.self).toBe(false);
  });

  it('uses the configured host and port until the server listens, then the address it listens on', () => {
    let address: { address: string; family: string; port: number } | null = null;
    const docs = new DocsLocation(undefined, { host: '127.0.0.1', port: 0 }, () => address);
    expect(docs.self).toBe(true);
    expect(docs.path).toBe('/docs');
    expect(docs.url).toBe('http://127.0.0.1:0/docs');
    address = { address: '0.0.0.0', family: 'IPv4', port: 41234 };
    expect(docs.url).toBe('http://localhost:41234/docs');
  });
});

describe('a listening service without SVC_DOCS_URL', () => {
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  it('points problem types, the OpenAPI document and the pages at its own /docs on the port it got', async () => {
    h = await harness({ config: { port: 0 } });
    const base = await h.app.listen({ host: '127.0.0.1', port: 0 });
    expect(base).not.toMatch(/:0$/);
    expect(h.app.docs.url).toBe(`${base}/docs`);

    const problem = await (await fetch(`${base}/v1/cities/atlantis`)).json() as Problem;
    expect(problem.type).toBe(`${base}/docs/errors#not_found`);
    const errorsPage = await fetch(problem.type);
    expect(errorsPage.status).toBe(200);
    expect(await errorsPage.text()).toContain('id="not_found"');

    const doc = await (await fetch(`${base}/v1/openapi.json`)).json() as { externalDocs: { url: string } };
    expect(doc.externalDocs.url).toBe(`${base}/docs`);
    const reference = await (await fetch(`${base}/docs`)).text();
    expect(reference).toContain(`export BASE_URL=${base}/v1`);
    expect(reference).not.toContain('svc.example');
  });
});
