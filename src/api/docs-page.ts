/**
 * The published documentation pages the problem `type` URIs point to: `{docs path}` (overview) and
 * `{docs path}/errors`, whose `#<code>` anchors name every problem code. Both are generated from the error catalogue,
 * so a code can never lack its anchor.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { PROBLEM_CODES, PROBLEMS } from './problems.js';

/** Options of the docs pages. */
export interface DocsOptions {
  /** The configured docs URL; its path is where the pages are served. */
  readonly docsUrl: string;
  readonly version: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
code{background:#f2f2f2;padding:0 .25em;border-radius:3px}section{border-top:1px solid #ddd;padding:.5rem 0}
section:target{background:#fff8d6}</style></head><body>
${body}
</body></html>
`;
}

/** The HTML of the errors page: one section per code, `id` = code. */
export function errorsPageHtml(docsUrl: string): string {
  const sections = PROBLEM_CODES.map((code) => {
    const entry = PROBLEMS[code];
    return `<section id="${code}"><h2><code>${code}</code> ${entry.status} ${escapeHtml(entry.title)}</h2><p>${escapeHtml(entry.when)}</p></section>`;
  }).join('\n');
  return page(
    'Errors',
    `<h1>Errors</h1>
<p>Every error is an RFC 9457 problem document (<code>application/problem+json</code>) with <code>type</code>
(<code>${escapeHtml(docsUrl)}/errors#&lt;code&gt;</code>), <code>code</code>, <code>title</code>, <code>status</code>,
<code>detail</code> and <code>request_id</code> (equal to the <code>X-Request-Id</code> header). Branch on <code>code</code>.
A 403 is always about the key; a 404 or 422 is always about the data.</p>
${sections}`,
  );
}

/** The HTML of the overview page. */
export function overviewPageHtml(docsUrl: string, version: string): string {
  return page(
    'Street-level environmental conditions API',
    `<h1>Street-level environmental conditions API <small>${escapeHtml(version)}</small></h1>
<p>All endpoints live under <code>/v1</code>. The machine-readable description is
<a href="/v1/openapi.json"><code>/v1/openapi.json</code></a> (OpenAPI 3.1).</p>
<p>Send keys as <code>Authorization: Bearer &lt;key&gt;</code> or <code>X-API-Key: &lt;key&gt;</code>. No key is needed for
<code>/v1/health</code>, <code>/v1/cities</code> and <code>/v1/scales</code>.</p>
<p>Error codes: <a href="${escapeHtml(docsUrl)}/errors">${escapeHtml(docsUrl)}/errors</a>.</p>`,
  );
}

/** Registers the pages at the path of the configured docs URL (outside `/v1`: they document every version). */
export async function docsRoutes(app: FastifyInstance, options: DocsOptions): Promise<void> {
  const base = new URL(options.docsUrl).pathname.replace(/\/+$/, '');
  const overview = overviewPageHtml(options.docsUrl, options.version);
  const errors = errorsPageHtml(options.docsUrl);
  const send = (html: string) => async (_request: unknown, reply: FastifyReply) =>
    reply.header('cache-control', 'public, max-age=3600').type('text/html; charset=utf-8').send(html);
  app.get(base === '' ? '/' : base, { schema: { hide: true } }, send(overview));
  app.get(`${base}/errors`, { schema: { hide: true } }, send(errors));
}
