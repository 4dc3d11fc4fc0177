/**
 * The API reference page, rendered on the server from the OpenAPI document the service publishes: an introduction
 * (base URL, keys, locations, errors, limits, versioning), then every operation grouped by tag, each with its
 * parameters, responses, body fields, problem codes and examples. Nothing is fetched by the browser but the
 * stylesheet the service serves itself.
 */
import { codeBlock, escapeHtml, inline } from './html.js';
import { pageHtml, type DocsPaths, type NavItem } from './layout.js';
import { operationHtml } from './operation-html.js';
import { operations, type OpenApiDocument, type OperationEntry } from './openapi-types.js';

/** Display names of the document's tags, in the order the page lists them; unknown tags follow, by name. */
const TAG_TITLES: Readonly<Record<string, string>> = {
  reference: 'Reference data',
  keys: 'Key',
  geocode: 'Address search',
  historical: 'Historical statistics',
  realtime: 'Live records',
  forecast: 'Forecast records',
};

const INTRO_NAV: readonly [id: string, text: string][] = [
  ['getting-started', 'Getting started'],
  ['keys', 'Keys'],
  ['locations', 'Locations'],
  ['errors', 'Errors'],
  ['limits', 'Limits and caching'],
  ['versioning', 'Versioning'],
  ['terms', 'Terms of use'],
];

/** Operations grouped by their first tag, groups in `TAG_TITLES` order. */
function groups(doc: OpenApiDocument): { tag: string; title: string; description: string | undefined; ops: OperationEntry[] }[] {
  const byTag = new Map<string, OperationEntry[]>();
  for (const entry of operations(doc)) {
    const tag = entry.op.tags?.[0] ?? 'other';
    byTag.set(tag, [...(byTag.get(tag) ?? []), entry]);
  }
  const known = Object.keys(TAG_TITLES);
  const order = [...byTag.keys()].sort((a, b) => {
    const ia = known.indexOf(a);
    const ib = known.indexOf(b);
    return (ia === -1 ? known.length : ia) - (ib === -1 ? known.length : ib) || a.localeCompare(b);
  });
  return order.map((tag) => ({
    tag,
    title: TAG_TITLES[tag] ?? tag.charAt(0).toUpperCase() + tag.slice(1),
    description: doc.tags?.find((t) => t.name === tag)?.description,
    ops: byTag.get(tag)!,
  }));
}

function introHtml(doc: OpenApiDocument, baseUrl: string, paths: DocsPaths): string {
  const pre = (label: string, text: string) => codeBlock(label, escapeHtml(text), 'shell');
  return `<section class="intro" id="introduction">
<p class="eyebrow">API reference · OpenAPI ${escapeHtml(doc.openapi)}</p>
<h1>${escapeHtml(doc.info.title)}</h1>
<p class="lead">${inline(doc.info.description ?? '')}</p>
<div class="facts">
<div class="fact"><div class="fact-label">Base URL</div><code>${escapeHtml(baseUrl)}</code></div>
<div class="fact"><div class="fact-label">Authentication</div><code>Authorization: Bearer &lt;key&gt;</code></div>
<div class="fact"><div class="fact-label">Answers</div>JSON; errors as RFC 9457 problem documents</div>
<div class="fact"><div class="fact-label">Machine-readable</div><a href="${escapeHtml(paths.openapi)}"><code>${escapeHtml(paths.openapi)}</code></a></div>
</div>
</section>
<section class="topic" id="getting-started">
<h2>Getting started</h2>
<p>The examples on this page use two shell variables: the base URL of this server and your API key. <code>npm start</code>
prints a demo key with every product; an operator issues others with <code>svc keys create</code>.</p>
${pre('Shell: the two variables the examples use', `export BASE_URL=${baseUrl}\nexport KEY=svc_sk_…   # your key`)}
<p>Check that the service answers (no key needed), then ask for the statistics of a street in central Brussels:</p>
${pre('Shell: a first health check and statistics request', 'curl -s "$BASE_URL/health"\ncurl -s -H "Authorization: Bearer $KEY" "$BASE_URL/historical/stats?lat=50.84675&lon=4.35224&radius=25"')}
</section>
<section class="topic" id="keys">
<h2>Keys</h2>
<p>Send the key as <code>Authorization: Bearer &lt;key&gt;</code> or as <code>X-API-Key: &lt;key&gt;</code>. Secret keys
(<code>svc_sk_…</code>) are for servers: one used from a browser (a request with <code>Origin</code> or
<code>Sec-Fetch-Site</code>) is refused. Publishable keys (<code>svc_pk_…</code>) may be used from web pages whose origin
the key lists. A key carries three scopes, cities, products and metrics; <a href="#get-v1-key"><code>GET /v1/key</code></a>
shows them with the key's limits.</p>
<p>No key is needed for health, the city index and the scales. A missing or unknown key answers <code>401</code>; a valid
key that may not make the request (deactivated, expired, product, city or metric outside its scope, origin not
listed) answers <code>403</code>.</p>
</section>
<section class="topic" id="locations">
<h2>Locations</h2>
<p>Endpoints about a place take either <code>address</code> (free text; the best geocoding match is used) or both
<code>lat</code> and <code>lon</code> (WGS 84 decimal degrees), never both. Coordinates are rounded to 5 decimals (about
a metre) before anything else, and every answer reports the location as used. Anywhere in Belgium has historical
statistics: inside the Brussels high-resolution zone from the street-level model (<code>brussels_extended</code>),
elsewhere from the nationwide dataset (<code>belgium_lowres</code>); <code>meta.dataset</code> says which.
Live and forecast records exist only inside covered cities that offer them (see <a href="#get-v1-cities"><code>GET /v1/cities</code></a>).</p>
</section>
<section class="topic" id="errors">
<h2>Errors</h2>
<p>Every error is an RFC 9457 problem document, <code>application/problem+json</code>, with <code>type</code> (a link to
the code's entry in the <a href="${escapeHtml(paths.errors)}">error catalogue</a>), <code>code</code> (branch on it),
<code>title</code>, <code>status</code>, <code>detail</code> (this occurrence, in words) and <code>request_id</code>
(equal to the <code>X-Request-Id</code> header every response carries). A <code>403</code> is always about the key; a
<code>404</code> or <code>422</code> is always about the data.</p>
</section>
<section class="topic" id="limits">
<h2>Limits and caching</h2>
<p>Each key has a per-minute request limit on the keyed endpoints. Their answers carry <code>X-RateLimit-Limit</code>,
<code>X-RateLimit-Remaining</code> and <code>X-RateLimit-Reset</code> (epoch second at which the next UTC minute
starts); past the limit the answer is <code>429 rate_limited</code> with <code>Retry-After</code>. Historical statistics
are cached per location and radius and live records for 5 minutes; both say <code>X-Cache: hit</code> or
<code>miss</code>. Reference data is cacheable for an hour.</p>
</section>
<section class="topic" id="versioning">
<h2>Versioning</h2>
<p>The version is the first path segment, <code>/v1</code>; <a href="#get-v1-health"><code>GET /v1/health</code></a>
reports the running release. Hourly records may gain fields as the model evolves: keep what you do not know. Where this
page and the <a href="${escapeHtml(paths.openapi)}">OpenAPI document</a> differ, the document is authoritative.</p>
</section>
${termsHtml(doc)}`;
}

/** The terms the document's licence object points at (`info.license.url`, this section's anchor). */
function termsHtml(doc: OpenApiDocument): string {
  const licence = doc.info.license?.name;
  return `<section class="topic" id="terms">
<h2>Terms of use</h2>
${licence === undefined ? '' : `<p>Licence: ${escapeHtml(licence)}.</p>`}
<p>The service, its answers and this documentation are proprietary: publishing them grants no licence to copy or
redistribute them. Keyed endpoints may be used with a key the operator of this service issued, within that key's
scopes and limits. Addresses from <a href="#get-v1-geocode"><code>GET /v1/geocode</code></a> may only be used to query
this service and must not be stored or redistributed. The sources of the data and their attributions are in each
city's <code>attribution</code> (<a href="#get-v1-cities-city"><code>GET /v1/cities/{city}</code></a>).</p>
</section>`;
}

/** The reference page for `doc`, served at `paths.reference`; `baseUrl` is this server's `/v1` root. */
export function referencePageHtml(doc: OpenApiDocument, baseUrl: string, paths: DocsPaths): string {
  const tagGroups = groups(doc);
  const nav: NavItem[] = [
    { kind: 'heading', text: 'Introduction' },
    ...INTRO_NAV.map(([id, text]): NavItem => ({ kind: 'link', href: `#${id}`, text })),
  ];
  for (const group of tagGroups) {
    nav.push({ kind: 'heading', text: group.title });
    for (const entry of group.ops) nav.push({ kind: 'link', href: `#${entry.id}`, text: entry.path.replace(/^\/v1/, ''), method: entry.method, mono: true });
  }
  const sections = tagGroups
    .map((group) => `<section class="group" id="tag-${escapeHtml(group.tag)}"><h2 class="group-title">${escapeHtml(group.title)}</h2>${
      group.description ? `<p class="group-desc">${inline(group.description)}</p>` : ''
    }${group.ops.map((entry) => operationHtml(entry, paths.errors)).join('\n')}</section>`)
    .join('\n');
  return pageHtml({
    title: `${doc.info.title} — API reference`,
    version: doc.info.version,
    paths,
    current: 'reference',
    nav,
    main: `${introHtml(doc, baseUrl, paths)}\n${sections}`,
  });
}
