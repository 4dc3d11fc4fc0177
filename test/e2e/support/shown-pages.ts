/**
 * The pages the service shows people, as a running service serves them: the API reference (`/docs`), the error
 * catalogue (`/docs/errors`), the map page (`/map/`) and one HTML report made through the reports product (request,
 * poll, download), so the accessibility and HTML-conformance tests check what a person really gets.
 */
import { expect } from 'vitest';
import type { E2eServer } from './e2e-server.js';

/** A page's HTML with the headers it was served with. */
export interface ShownPage {
  /** A short name for messages and file names. */
  readonly name: string;
  /** The path it is served at (for the report: the download path). */
  readonly path: string;
  readonly html: string;
  readonly headers: Headers;
}

/** The documentation pages and the map page, fetched without a key (none of them needs one). */
export async function servedPages(e2e: E2eServer): Promise<ShownPage[]> {
  const pages: ShownPage[] = [];
  for (const [name, path] of [['reference', '/docs'], ['errors', '/docs/errors'], ['map', '/map/']] as const) {
    const res = await fetch(`${e2e.base}${path}`);
    expect(res.status, path).toBe(200);
    pages.push({ name, path, html: await res.text(), headers: res.headers });
  }
  return pages;
}

/** An English street-level report of the Grand-Place, requested with `key` (product `reports`) and downloaded. */
export async function reportPage(e2e: E2eServer, key: string): Promise<ShownPage> {
  const accepted = await e2e.post('/v1/reports', { address: 'Grand-Place 1, 1000 Bruxelles', radius: 25, lang: 'en' }, key);
  expect(accepted.status, accepted.text).toBe(202);
  let status = accepted.json;
  for (let i = 0; i < 600 && status.status === 'processing'; i++) {
    await new Promise((r) => setTimeout(r, 20));
    status = (await e2e.get(accepted.headers.get('location')!, key)).json;
  }
  expect(status.status).toBe('completed');
  const file = await e2e.get(status.files.html.url, key);
  expect(file.status).toBe(200);
  return { name: 'report', path: status.files.html.url, html: file.text, headers: file.headers };
}
