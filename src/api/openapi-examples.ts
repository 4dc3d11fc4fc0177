/**
 * Examples for the published OpenAPI document: for every operation a value of each parameter, an example request
 * (`x-codeSamples`, a curl command over the `BASE_URL` and `KEY` shell variables the reference page introduces), the
 * example 200 answer and an example of each problem status. Keyless answers are asked from the service itself when the
 * document is published, so they are always current; keyed answers are the stored real answers of example-answers.ts.
 */
import { PROBLEMS, type ProblemCode } from './problems.js';
import { FORECAST_EXAMPLE, GEOCODE_EXAMPLE, KEY_EXAMPLE, REALTIME_EXAMPLE, STATS_EXAMPLE } from './example-answers.js';
import type { CodeSample, OpenApiDocument, OpenApiOperation, OpenApiResponse } from './reference/openapi-types.js';
import { METHODS, needsKey } from './reference/openapi-types.js';

/** How one operation is shown by example. */
export interface OperationExamples {
  /** A value of every parameter (path and query), published as each parameter's `example`. */
  readonly params: Readonly<Record<string, string | number>>;
  /** The parameters the example request sends, in this order. */
  readonly send: readonly string[];
  /** The 200 answer; absent: asked from the service itself (keyless endpoints). */
  readonly answer?: unknown;
  /** Details of this operation's example problems where the general one would not fit. */
  readonly problems?: Partial<Readonly<Record<ProblemCode, string>>>;
}

const AT_GRAND_PLACE = { address: 'Grand-Place 1, 1000 Bruxelles', lat: 50.84675, lon: 4.35224, radius: 25 } as const;

/** Examples by `METHOD /path` as the document names operations. */
export const OPERATION_EXAMPLES: Readonly<Record<string, OperationExamples>> = {
  'GET /v1/health': { params: {}, send: [] },
  'GET /v1/cities': { params: { product: 'realtime' }, send: ['product'] },
  'GET /v1/cities/{city}': { params: { city: 'brussels' }, send: ['city'] },
  'GET /v1/scales': {
    params: { metric: 'wind' },
    send: ['metric'],
    problems: { validation_error: "Query parameter 'metric' must be one of 'air', 'wind', 'thermal'." },
  },
  'GET /v1/scales/{scale}': {
    params: { scale: 'wind-nen8100' },
    send: ['scale'],
    problems: { not_found: "No scale 'wind-beaufort'; GET /v1/scales lists them." },
  },
  'GET /v1/key': { params: {}, send: [], answer: KEY_EXAMPLE },
  'GET /v1/geocode': { params: { q: 'Grand-Place 1', limit: 2 }, send: ['q', 'limit'], answer: GEOCODE_EXAMPLE },
  'GET /v1/historical/stats': {
    params: { ...AT_GRAND_PLACE, metrics: 'air,wind,thermal' },
    send: ['lat', 'lon', 'radius'],
    answer: STATS_EXAMPLE,
  },
  'GET /v1/realtime': { params: AT_GRAND_PLACE, send: ['lat', 'lon', 'radius'], answer: REALTIME_EXAMPLE },
  'GET /v1/forecast': { params: AT_GRAND_PLACE, send: ['lat', 'lon', 'radius'], answer: FORECAST_EXAMPLE },
};

/** A detail each code's example problem shows, in the words the service uses. */
const PROBLEM_DETAILS: Readonly<Record<ProblemCode, string>> = {
  validation_error: "Query parameter 'radius' must be <= 50.",
  unauthorized: 'An API key is required: send Authorization: Bearer <key> or X-API-Key: <key>.',
  url_expired: 'This signed URL expired at 2025-07-15T13:00:00Z; ask the map catalog for a new one.',
  forbidden: "This API key does not include the product 'historical'.",
  not_found: "No city 'atlantis'; GET /v1/cities lists them.",
  method_not_allowed: "POST is not allowed on '/v1/health'; allowed: GET, HEAD, OPTIONS.",
  request_timeout: 'The request did not arrive in time; the connection is closed.',
  headers_too_large: 'The request headers are larger than the service accepts.',
  payload_too_large: 'The request body is larger than the service accepts.',
  unsupported_media_type: 'The request body has a content type this endpoint does not accept.',
  outside_coverage: 'The location 48.85661, 2.35222 is outside every covered area (Belgium).',
  product_unavailable: "The city 'ghent' does not offer live hourly records.",
  rate_limited: "This key's limit of 600 requests per minute is used up; the next window starts in 21 s.",
  quota_exceeded: "This key's 50 reports for today are used up; the quota resets at midnight UTC.",
  internal_error: 'An unexpected error occurred; quote the request id when reporting it.',
  upstream_error: 'The compute back end failed; retrying is reasonable.',
  upstream_unavailable: 'The model service is unreachable and no map catalog is cached yet.',
  upstream_timeout: 'The statistics are still being computed; retry in a moment to get them.',
};

const EXAMPLE_REQUEST_ID = '0b6f4c1e-3f43-4d2a-9a55-4f3a1f6f2c11';

/** A query value as it reads best in a URL: percent-encoded, commas kept. */
function encode(value: string | number): string {
  return encodeURIComponent(String(value)).replace(/%2C/g, ',');
}

/** The path and query of the example request of `path` (under `/v1`, which `BASE_URL` includes). */
export function exampleTarget(path: string, ex: OperationExamples): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => encode(ex.params[name] ?? name));
  const query = ex.send.filter((name) => !path.includes(`{${name}}`)).map((name) => `${name}=${encode(ex.params[name]!)}`);
  return `${filled}${query.length > 0 ? `?${query.join('&')}` : ''}`;
}

/** The curl command of the example request. */
function curlSample(path: string, op: OpenApiOperation, ex: OperationExamples): CodeSample {
  const target = exampleTarget(path, ex).replace(/^\/v1/, '$BASE_URL');
  return { lang: 'Shell', label: 'curl', source: needsKey(op) ? `curl -s -H "Authorization: Bearer $KEY" \\\n  "${target}"` : `curl -s "${target}"` };
}

/** Each problem status of `op` with an example document of its first code. */
function withProblemExamples(
  responses: Readonly<Record<string, OpenApiResponse>>,
  docsUrl: string,
  details: Partial<Readonly<Record<ProblemCode, string>>>,
): Record<string, OpenApiResponse> {
  const out: Record<string, OpenApiResponse> = {};
  for (const [status, response] of Object.entries(responses)) {
    const media = response.content?.['application/problem+json'];
    const code = media?.schema?.properties?.code?.enum?.[0] as ProblemCode | undefined;
    if (media === undefined || code === undefined) {
      out[status] = response;
      continue;
    }
    const example = {
      type: `${docsUrl}/errors#${code}`, code, title: PROBLEMS[code].title, status: PROBLEMS[code].status,
      detail: details[code] ?? PROBLEM_DETAILS[code], request_id: EXAMPLE_REQUEST_ID,
    };
    out[status] = { ...response, content: { ...response.content, 'application/problem+json': { ...media, example } } };
  }
  return out;
}

/**
 * `doc` with the examples added: parameter examples, `x-codeSamples`, the 200 example (stored, or from `ask`, which
 * answers a GET of a path under `/v1` as the service would) and problem examples whose `type` points at `docsUrl`.
 */
export async function withExamples(
  doc: OpenApiDocument,
  docsUrl: string,
  ask: (target: string) => Promise<unknown>,
): Promise<OpenApiDocument> {
  const paths: Record<string, Record<string, OpenApiOperation>> = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    const ops: Record<string, OpenApiOperation> = { ...item };
    for (const method of METHODS) {
      const op = item[method];
      const ex = op && OPERATION_EXAMPLES[`${method.toUpperCase()} ${path}`];
      if (op === undefined || ex === undefined) continue;
      const parameters = op.parameters?.map((p) => (ex.params[p.name] !== undefined ? { ...p, example: ex.params[p.name] } : p));
      const responses = withProblemExamples(op.responses, docsUrl, ex.problems ?? {});
      const ok = responses['200'];
      const media = ok?.content?.['application/json'];
      if (ok !== undefined && media !== undefined) {
        const answer = ex.answer ?? (await ask(exampleTarget(path, ex)));
        if (answer !== undefined) responses['200'] = { ...ok, content: { ...ok.content, 'application/json': { ...media, example: answer } } };
      }
      ops[method] = { ...op, ...(parameters ? { parameters } : {}), responses, 'x-codeSamples': [curlSample(path, op, ex)] };
    }
    paths[path] = ops;
  }
  return { ...doc, paths };
}
