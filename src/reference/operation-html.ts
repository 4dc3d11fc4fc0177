/**
 * One operation of the API reference: what it does and who may call it, its parameters, every response with its
 * headers, body fields and problem codes (linked to the error catalogue), and beside it an example request and the
 * example answers the OpenAPI document carries.
 */
import { codeBlock, escapeHtml, inline, jsonHtml, prose } from './html.js';
import { acceptsKey, needsKey, type OpenApiOperation, type OpenApiParameter, type OpenApiResponse, type OperationEntry } from './openapi-types.js';
import { bodySchemaHtml, constraints, typeLabel } from './schema-html.js';

const PRODUCTS = new Set(['geocode', 'historical', 'realtime', 'forecast', 'reports', 'map']);

const PROBLEM_MEDIA = 'application/problem+json';

/** Who may call the operation, as a badge and a sentence. */
function accessHtml(op: OpenApiOperation): string {
  if (needsKey(op)) {
    const product = op.tags?.find((t) => PRODUCTS.has(t));
    const who = product !== undefined ? `a key with product <code>${escapeHtml(product)}</code>` : 'any valid key';
    return `<p class="access"><span class="badge badge-key">Key</span> Needs ${who}, sent as <code>Authorization: Bearer &lt;key&gt;</code> or <code>X-API-Key</code>; rate limited.</p>`;
  }
  if (acceptsKey(op)) {
    return '<p class="access"><span class="badge badge-open">No key</span> Open to everyone; a key, when sent, is checked and adds <code>authorized</code>. Not rate limited.</p>';
  }
  return '<p class="access"><span class="badge badge-open">No key</span> Open to everyone; not rate limited.</p>';
}

function parameterRow(p: OpenApiParameter): string {
  const schema = p.schema ?? {};
  const cons = constraints(schema);
  const example = p.example !== undefined ? `<div class="field-cons">example <code>${escapeHtml(String(p.example))}</code></div>` : '';
  return `<tr><td><code class="field-name">${escapeHtml(p.name)}</code>${p.required ? '<span class="field-req">required</span>' : ''}</td>
<td><span class="field-type">${escapeHtml(typeLabel(schema))}</span></td>
<td>${p.description ? inline(p.description) : ''}${cons.length ? `<div class="field-cons">${cons.join(' · ')}</div>` : ''}${example}</td></tr>`;
}

function parametersHtml(params: readonly OpenApiParameter[]): string {
  if (params.length === 0) return '';
  const groups: [string, string][] = [['path', 'Path parameters'], ['query', 'Query parameters'], ['header', 'Headers']];
  return groups
    .map(([where, title]) => {
      const list = params.filter((p) => p.in === where);
      if (list.length === 0) return '';
      return `<h4>${title}</h4><table class="params typed"><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead><tbody>${list.map(parameterRow).join('')}</tbody></table>`;
    })
    .join('');
}

/** The request body: its media type and fields. */
function requestBodyHtml(op: OpenApiOperation): string {
  const media = Object.entries(op.requestBody?.content ?? {});
  if (media.length === 0) return '';
  const bodies = media
    .filter(([, m]) => m.schema !== undefined)
    .map(([type, m]) => `<div class="media">Body <code>${escapeHtml(type)}</code>${op.requestBody?.required ? '<span class="field-req">required</span>' : ''}</div>${bodySchemaHtml(m.schema!)}`)
    .join('');
  return `<h4>Request body</h4>${bodies}`;
}

/** An example as shown: JSON highlighted, any other media type (a file) as its text. */
function exampleHtml(type: string, example: unknown): string {
  return /json/.test(type) ? jsonHtml(example) : escapeHtml(String(example));
}

function statusClass(status: string): string {
  return `s${status[0] ?? 'x'}xx`;
}

function headersHtml(response: OpenApiResponse): string {
  const entries = Object.entries(response.headers ?? {});
  if (entries.length === 0) return '';
  const rows = entries
    .map(([name, h]) => `<tr><td><code class="field-name">${escapeHtml(name)}</code></td><td><span class="field-type">${escapeHtml(typeLabel(h.schema ?? {}))}</span></td><td>${h.description ? inline(h.description) : ''}</td></tr>`)
    .join('');
  return `<table class="params typed headers"><thead><tr><th>Header</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The codes a problem response can carry, each linked to its entry in the error catalogue. */
function problemCodes(response: OpenApiResponse, errorsPath: string): string[] {
  const schema = response.content?.[PROBLEM_MEDIA]?.schema;
  const codes = (schema?.properties?.code?.enum ?? []) as string[];
  return codes.map((code) => `<a class="code-link" href="${escapeHtml(errorsPath)}#${escapeHtml(code)}"><code>${escapeHtml(code)}</code></a>`);
}

function responseHtml(status: string, response: OpenApiResponse, errorsPath: string): string {
  const head = `<div class="resp-head"><span class="status ${statusClass(status)}">${escapeHtml(status)}</span>`;
  const codes = problemCodes(response, errorsPath);
  if (codes.length > 0) {
    return `<div class="resp resp-problem">${head}<span class="resp-desc">Problem document: ${codes.join(', ')}</span></div>${headersHtml(response)}</div>`;
  }
  const media = Object.entries(response.content ?? {});
  const bodies = media
    .filter(([, m]) => m.schema !== undefined && m.schema.type !== 'null')
    .map(([type, m]) => `<div class="media">Body <code>${escapeHtml(type)}</code></div>${bodySchemaHtml(m.schema!)}`)
    .join('');
  return `<div class="resp">${head}<span class="resp-desc">${inline(response.description ?? '')}</span></div>${headersHtml(response)}${bodies}</div>`;
}

/** A card's caption: what it shows, with the badge of its status and its language or media type. */
interface Caption {
  readonly what: string;
  readonly status?: string;
  readonly lang: string;
}

/** An example card; its code block is named by the caption and the operation (`where`), unique on the page. */
function codeCard(caption: Caption, body: string, where: string, cls = ''): string {
  const status = caption.status === undefined ? '' : ` <span class="status ${statusClass(caption.status)}">${escapeHtml(caption.status)}</span>`;
  const title = `${escapeHtml(caption.what)}${status} <span class="lang">${escapeHtml(caption.lang)}</span>`;
  const label = `${caption.what}${caption.status === undefined ? '' : ` ${caption.status}`} (${caption.lang}), ${where}`;
  return `<figure class="code-card ${cls}"><figcaption>${title}</figcaption>${codeBlock(label, body)}</figure>`;
}

/** The example request and answers: code samples, the success example, one problem example. */
function examplesHtml(op: OpenApiOperation, where: string): string {
  const cards: string[] = [];
  for (const sample of op['x-codeSamples'] ?? []) cards.push(codeCard({ what: 'Request', lang: sample.label ?? sample.lang }, escapeHtml(sample.source), where));
  for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
    if (media.example !== undefined) cards.push(codeCard({ what: 'Request body', lang: type }, exampleHtml(type, media.example), where));
  }
  // The success example and the first problem example; the document carries one for every status.
  let problemShown = false;
  for (const [status, response] of Object.entries(op.responses)) {
    for (const [type, media] of Object.entries(response.content ?? {})) {
      if (media.example === undefined || (type === PROBLEM_MEDIA && problemShown)) continue;
      problemShown ||= type === PROBLEM_MEDIA;
      const cls = type === PROBLEM_MEDIA ? 'card-problem' : '';
      cards.push(codeCard({ what: 'Response', status, lang: type }, exampleHtml(type, media.example), where, cls));
    }
  }
  return cards.join('');
}

/** The section of one operation; `errorsPath` is where the error catalogue page is served. */
export function operationHtml(entry: OperationEntry, errorsPath: string): string {
  const { op, method, path } = entry;
  const responses = Object.entries(op.responses).map(([status, r]) => responseHtml(status, r, errorsPath)).join('');
  return `<section class="op" id="${escapeHtml(entry.id)}">
<div class="op-text">
<h3 class="op-title"><a class="anchor" href="#${escapeHtml(entry.id)}">${escapeHtml(op.summary ?? `${method.toUpperCase()} ${path}`)}</a></h3>
<div class="op-path"><span class="method method-${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span><code>${escapeHtml(path)}</code></div>
${op.operationId === undefined ? '' : `<p class="op-id">operationId <code>${escapeHtml(op.operationId)}</code></p>`}
${accessHtml(op)}
<div class="op-desc">${prose(op.description)}</div>
${parametersHtml(op.parameters ?? [])}
${requestBodyHtml(op)}
<h4>Responses</h4>
${responses}
</div>
<div class="op-examples">${examplesHtml(op, `${method.toUpperCase()} ${path}`)}</div>
</section>`;
}
