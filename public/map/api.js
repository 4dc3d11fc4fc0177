/**
 * The service's HTTP API as the page uses it: same-origin requests, the key as `Authorization: Bearer` (never in a
 * URL), and every failure as an `ApiError` carrying the problem document's `title`, `detail`, `code` and status.
 */

/** A failed request: the problem document's fields, or what the page could tell without one. */
export class ApiError extends Error {
  constructor(status, code, title, detail) {
    super(detail ? `${title}: ${detail}` : title);
    this.status = status;
    this.code = code;
    this.title = title;
    this.detail = detail;
  }
}

/** GET `path` as JSON, with the key when given; throws ApiError on any failure. */
export async function getJson(path, key) {
  const headers = { accept: 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  let res;
  try {
    res = await fetch(path, { headers, cache: 'no-cache' });
  } catch (err) {
    throw new ApiError(0, 'network', 'The service cannot be reached', String(err.message ?? err));
  }
  const text = await res.text();
  let body;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const problem = body && typeof body === 'object' ? body : {};
    throw new ApiError(res.status, problem.code ?? `http_${res.status}`, problem.title ?? `HTTP ${res.status}`, problem.detail ?? '');
  }
  return body;
}

/** The key in the page's URL fragment (`#key=svc_pk_…`), or undefined. */
export function keyFromFragment(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const key = params.get('key')?.trim();
  return key ? key : undefined;
}

/** The city the page shows: `#city=<id>` in the fragment (lower-case id as in /v1/cities), else Brussels. */
export function cityFromFragment(hash) {
  const city = new URLSearchParams(hash.replace(/^#/, '')).get('city')?.trim();
  return city && /^[a-z0-9-]{1,64}$/.test(city) ? city : 'brussels';
}

/** An absolute URL for a root-relative link of the API (MapLibre's worker has no page to resolve against). */
export function absolute(link) {
  return new URL(link, location.href).href;
}
