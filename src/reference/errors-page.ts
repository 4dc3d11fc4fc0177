/**
 * The error catalogue page, `{docs}/errors`: what a problem document holds, and one entry per code with the anchor
 * problem `type` URIs point at (`#<code>`), its status and title, when it is answered, and which endpoints can answer
 * it (read from the OpenAPI document, linked to their place in the reference). Generated from `PROBLEMS`, so a code
 * can never lack its anchor.
 */
import { PROBLEM_CODES, PROBLEMS, type ProblemCode } from '../api/problems.js';
import { codeBlock, escapeHtml, inline, jsonHtml } from './html.js';
import { pageHtml, type DocsPaths, type NavItem } from './layout.js';
import { operations, type OpenApiDocument } from './openapi-types.js';

/** The endpoints whose documented problem responses include each code. */
function answeredBy(doc: OpenApiDocument): Map<string, { method: string; path: string; id: string }[]> {
  const out = new Map<string, { method: string; path: string; id: string }[]>();
  for (const { method, path, op, id } of operations(doc)) {
    for (const response of Object.values(op.responses)) {
      const codes = (response.content?.['application/problem+json']?.schema?.properties?.code?.enum ?? []) as string[];
      for (const code of codes) out.set(code, [...(out.get(code) ?? []), { method, path, id }]);
    }
  }
  return out;
}

/** Where a code comes from when no endpoint of this release documents it. */
const ELSEWHERE: Partial<Record<ProblemCode, string>> = {
  method_not_allowed: 'any known path asked with another method',
  payload_too_large: 'any request whose body is too large, before it reaches an endpoint',
  unsupported_media_type: 'any request with a body of another media type, before it reaches an endpoint',
  internal_error: 'any endpoint, on a fault of the service',
  url_expired: 'signed map tile URLs (the map product, not served by this release)',
  quota_exceeded: 'report requests (the reports product, not served by this release)',
  upstream_unavailable: 'the map catalog (the map product, not served by this release)',
};

function codeSection(code: ProblemCode, endpoints: { method: string; path: string; id: string }[], paths: DocsPaths): string {
  const entry = PROBLEMS[code];
  const where =
    endpoints.length > 0
      ? `<div class="answered-by"><span class="fact-label">Answered by</span>${endpoints
          .map((e) => `<a href="${escapeHtml(paths.reference)}#${escapeHtml(e.id)}"><span class="method method-${escapeHtml(e.method)} mini">${escapeHtml(e.method.toUpperCase())}</span><code>${escapeHtml(e.path)}</code></a>`)
          .join('')}</div>`
      : `<div class="answered-by"><span class="fact-label">Answered by</span><span class="muted">${escapeHtml(ELSEWHERE[code] ?? 'no endpoint of this release')}</span></div>`;
  return `<section class="error-entry" id="${code}">
<h2><a class="anchor" href="#${code}"><code>${code}</code></a><span class="status s${String(entry.status)[0]}xx">${entry.status}</span><span class="error-title">${escapeHtml(entry.title)}</span></h2>
<p>${inline(entry.when)}</p>
${where}
</section>`;
}

/** The errors page; `docsUrl` is the published docs root, so the example shows the real `type` URIs. */
export function errorsPageHtml(doc: OpenApiDocument, docsUrl: string, paths: DocsPaths): string {
  const by = answeredBy(doc);
  const example = {
    type: `${docsUrl}/errors#rate_limited`,
    code: 'rate_limited',
    title: PROBLEMS.rate_limited.title,
    status: PROBLEMS.rate_limited.status,
    detail: "This key's limit of 600 requests per minute is used up; the next window starts in 21 s.",
    request_id: '0b6f4c1e-3f43-4d2a-9a55-4f3a1f6f2c11',
  };
  const nav: NavItem[] = [
    { kind: 'heading', text: 'Errors' },
    { kind: 'link', href: '#problem-documents', text: 'Problem documents' },
    { kind: 'heading', text: 'Codes' },
    ...PROBLEM_CODES.map((code): NavItem => ({ kind: 'link', href: `#${code}`, text: code, mono: true })),
  ];
  const main = `<section class="intro" id="problem-documents">
<p class="eyebrow">Error catalogue</p>
<h1>Errors</h1>
<p class="lead">Every error is an RFC 9457 problem document, media type <code>application/problem+json</code>. Clients
branch on <code>code</code>. A <code>403</code> is always about the key; a <code>404</code> or <code>422</code> is always
about the data.</p>
<div class="two-col">
<table class="params"><thead><tr><th>Field</th><th>Meaning</th></tr></thead><tbody>
<tr><td><code class="field-name">type</code></td><td>URI of the code's entry on this page: <code>${escapeHtml(docsUrl)}/errors#&lt;code&gt;</code></td></tr>
<tr><td><code class="field-name">code</code></td><td>Machine-readable code, one of those below</td></tr>
<tr><td><code class="field-name">title</code></td><td>Short summary, fixed per code</td></tr>
<tr><td><code class="field-name">status</code></td><td>The HTTP status, repeated</td></tr>
<tr><td><code class="field-name">detail</code></td><td>This occurrence in plain words; never internals</td></tr>
<tr><td><code class="field-name">request_id</code></td><td>Equals the <code>X-Request-Id</code> header; quote it when reporting a problem</td></tr>
</tbody></table>
<figure class="code-card"><figcaption>Example <span class="status s4xx">429</span></figcaption>${codeBlock('Example problem document (429)', jsonHtml(example))}</figure>
</div>
<p>Headers that come with problems: <code>X-Request-Id</code> always; <code>X-RateLimit-*</code> on keyed endpoints once
the key is known (every keyed problem except <code>401</code>); <code>Retry-After</code> with <code>429</code>;
<code>Allow</code> with <code>405</code>.</p>
</section>
${PROBLEM_CODES.map((code) => codeSection(code, by.get(code) ?? [], paths)).join('\n')}`;
  return pageHtml({ title: 'Errors — svc-api', version: doc.info.version, paths, current: 'errors', nav, main });
}
