/**
 * Examples for the published OpenAPI document: for every operation a value of each parameter, an example request
 * (`x-codeSamples`, a curl command over the `BASE_URL` and `KEY` shell variables the reference page introduces), the
 * example 200 answer and an example of each problem status. Keyless answers are asked from the service itself when the
 * document is published, so they are always current; keyed answers are the stored real answers of example-answers.ts.
 */
import { PROBLEMS, type ProblemCode } from '../../api/problems.js';
import {
  AREA_EXAMPLE,
  FORECAST_EXAMPLE,
  GEOCODE_EXAMPLE,
  KEY_EXAMPLE,
  REALTIME_EXAMPLE,
  REPORT_ACCEPTED_EXAMPLE,
  REPORT_FILE_EXAMPLES,
  REPORT_JOB_EXAMPLE_ID,
  REPORT_STATUS_EXAMPLE,
  STATS_EXAMPLE,
} from './example-answers.js';
import {
  BATCH_BODY_EXAMPLE, BATCH_EXAMPLE, BATCH_FILE_EXAMPLES, BATCH_JOB_ACCEPTED_EXAMPLE, BATCH_JOB_EXAMPLE_ID, BATCH_JOB_STATUS_EXAMPLE,
} from './batch-examples.js';
import {
  MAP_CATALOG_EXAMPLE, MAP_EXAMPLE_EXP, MAP_EXAMPLE_FORECAST_MS, MAP_EXAMPLE_LIVE_MS, MAP_EXAMPLE_SIGS, MAP_EXAMPLE_TILE, TILEJSON_EXAMPLES,
} from './map-examples.js';
import type { CodeSample, OpenApiDocument, OpenApiOperation, OpenApiResponse } from '../openapi-types.js';
import { METHODS, needsKey } from '../openapi-types.js';

/** How one operation is shown by example. */
export interface OperationExamples {
  /** A value of every parameter (path and query), published as each parameter's `example`. */
  readonly params: Readonly<Record<string, string | number>>;
  /** The parameters the example request sends, in this order. */
  readonly send: readonly string[];
  /** The JSON request body the example request sends (operations with a body). */
  readonly body?: unknown;
  /**
   * The success answer (200 or 202), or a function of the docs URL making it (an answer holding problem documents);
   * absent: asked from the service itself (keyless endpoints).
   */
  readonly answer?: unknown;
  /** Examples of a success answer that is a file, by media type; the example request saves it under its name. */
  readonly files?: Readonly<Record<string, string>>;
  /** Details of this operation's example problems where the general one would not fit. */
  readonly problems?: Partial<Readonly<Record<ProblemCode, string>>>;
}

const AT_GRAND_PLACE = { address: 'Grand-Place 1, 1000 Bruxelles', lat: 50.84675, lon: 4.35224, radius: 25 } as const;

/** Path and query values of a signed map URL of the example catalog (path parameters are strings). */
const signed = (layer: keyof typeof MAP_EXAMPLE_SIGS, timestamp?: number) => ({
  city: 'brussels',
  ...(layer === 'buildings' ? { static: layer } : { layer, timestamp: String(timestamp) }),
  exp: MAP_EXAMPLE_EXP,
  sig: MAP_EXAMPLE_SIGS[layer],
});
/** The detail of an upstream_error caused by damaged data, where that is the only way to get one. */
const DAMAGED_EXAMPLE = "Dataset 'brussels_extended' is damaged: chunk utci/0/3/4 is missing. The stored data must be repaired by the operator; retrying will not help until then.";

const TILE_NOT_FOUND = "No tiles at zoom '19': this tileset has zooms 12 to 16.";
const STEP_NOT_FOUND = "'1795500000001' is not a live timestep of this map (timestamps are timestamp_ms values of the map catalog).";

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
  'POST /v1/historical/area': {
    params: { metrics: 'air', min_coverage: 0.5 },
    send: ['metrics'],
    body: {
      type: 'Feature', id: 'school-yard',
      geometry: { type: 'Polygon', coordinates: [[[4.3515, 50.8462], [4.3525, 50.8462], [4.3525, 50.8468], [4.3515, 50.8468], [4.3515, 50.8462]]] },
    },
    answer: AREA_EXAMPLE,
    problems: {
      validation_error: 'Feature 0 (id "school-yard") is not simple: ring 0 (exterior) edge 0 meets edge 2 near (149012.31, 170612.07) in EPSG:31370 metres (self-intersection).',
      outside_coverage: 'Feature 0 (id "school-yard"): The area lies outside every covered area (Belgium).',
      product_unavailable: "Feature 0 (id \"school-yard\"): The city 'ghent' does not model 'thermal'.",
      forbidden: "This API key does not include the product 'historical'.",
      payload_too_large: 'The request body is larger than the service accepts.',
      unsupported_media_type: 'The request body has a content type this endpoint does not accept.',
      upstream_error: 'The compute back end failed; retrying is reasonable.',
    },
  },
  'POST /v1/historical/batch': {
    params: { metrics: 'air,wind' },
    send: ['metrics'],
    body: BATCH_BODY_EXAMPLE,
    answer: BATCH_EXAMPLE,
    problems: {
      validation_error: "Location ids must be unique; repeated: 'office'.",
      rate_limited: 'This batch counts 800 requests (one per location) but the key has 412 of its 600 per minute left, this request included; nothing was computed. Send fewer locations, or retry when the next window starts in 21 s.',
      forbidden: "This API key does not hold the metric 'thermal'.",
    },
  },
  'POST /v1/historical/jobs': {
    // min_coverage is documented by its example but not sent: it applies to area jobs, and the example body is a batch.
    params: { metrics: 'air,wind', min_coverage: 0.5 },
    send: ['metrics'],
    body: BATCH_BODY_EXAMPLE,
    answer: BATCH_JOB_ACCEPTED_EXAMPLE,
    problems: { validation_error: 'A batch holds at most 10000 locations; this one has 12000. Split the locations into jobs of at most 10000.' },
  },
  'GET /v1/historical/jobs/{job_id}': {
    params: { job_id: BATCH_JOB_EXAMPLE_ID },
    send: ['job_id'],
    answer: BATCH_JOB_STATUS_EXAMPLE,
    problems: { not_found: `There is no batch job '${BATCH_JOB_EXAMPLE_ID}'.` },
  },
  'GET /v1/historical/jobs/{job_id}/download': {
    params: { job_id: BATCH_JOB_EXAMPLE_ID, format: 'geojson' },
    send: ['job_id', 'format'],
    files: BATCH_FILE_EXAMPLES,
    problems: {
      validation_error: "Query parameter 'format' must be one of 'geojson', 'csv'.",
      not_found: `The batch job '${BATCH_JOB_EXAMPLE_ID}' is not completed yet; poll its status.`,
    },
  },
  'GET /v1/realtime': { params: AT_GRAND_PLACE, send: ['lat', 'lon', 'radius'], answer: REALTIME_EXAMPLE },
  'GET /v1/forecast': { params: AT_GRAND_PLACE, send: ['lat', 'lon', 'radius'], answer: FORECAST_EXAMPLE },
  'POST /v1/reports': {
    params: { 'idempotency-key': 'acme-order-4711' },
    send: [],
    body: { address: 'Grand-Place 1, 1000 Bruxelles', radius: 25, lang: 'fr' },
    answer: REPORT_ACCEPTED_EXAMPLE,
    problems: {
      validation_error: "Body field 'radius' must be <= 50.",
      quota_exceeded: "This key's daily quota of 50 reports is used up; it resets at midnight UTC, in 41370 s.",
      outside_coverage: "The address 'Champs-Élysées 1, Paris' was not recognised, so it could not be resolved inside a covered area.",
      product_unavailable: "The city 'ghent' models none of the metrics this API key holds.",
      forbidden: "This API key does not include the product 'reports'.",
      upstream_error: 'The geocoder failed; retrying is reasonable.',
    },
  },
  'GET /v1/reports/{job_id}': {
    params: { job_id: REPORT_JOB_EXAMPLE_ID },
    send: ['job_id'],
    answer: REPORT_STATUS_EXAMPLE,
    problems: {
      validation_error: "Path parameter 'job_id' must match the pattern ^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$.",
      not_found: `There is no report job '${REPORT_JOB_EXAMPLE_ID}'.`,
      forbidden: "This API key does not include the product 'reports'.",
    },
  },
  'GET /v1/reports/{job_id}/download': {
    params: { job_id: REPORT_JOB_EXAMPLE_ID, format: 'pdf' },
    send: ['job_id', 'format'],
    files: REPORT_FILE_EXAMPLES,
    problems: {
      validation_error: "Query parameter 'format' must be one of 'html', 'pdf'.",
      not_found: `The PDF of job '${REPORT_JOB_EXAMPLE_ID}' is not rendered yet: it is rendered on a status poll once the HTML is ready; poll the status until it lists the PDF.`,
      forbidden: "This API key does not include the product 'reports'.",
    },
  },
  'GET /v1/map/{city}': {
    params: { city: 'brussels' },
    send: ['city'],
    answer: MAP_CATALOG_EXAMPLE,
    problems: { not_found: "No city 'ghent' with a map; GET /v1/cities?product=map lists them.", upstream_error: DAMAGED_EXAMPLE },
  },
  'GET /v1/map/{city}/tiles/{layer}/{timestamp}.json': {
    params: signed('thermal', MAP_EXAMPLE_LIVE_MS), send: ['exp', 'sig'], answer: TILEJSON_EXAMPLES.thermal, problems: { not_found: STEP_NOT_FOUND },
  },
  'GET /v1/map/{city}/tiles/{layer}/{timestamp}/{z}/{x}/{y}.mvt': {
    params: { ...signed('thermal', MAP_EXAMPLE_LIVE_MS), ...MAP_EXAMPLE_TILE }, send: ['exp', 'sig'], problems: { not_found: TILE_NOT_FOUND },
  },
  'GET /v1/map/{city}/tiles/forecast/{layer}/{timestamp}.json': {
    params: signed('air', MAP_EXAMPLE_FORECAST_MS), send: ['exp', 'sig'], answer: TILEJSON_EXAMPLES.air, problems: { not_found: STEP_NOT_FOUND.replace('live', 'forecast') },
  },
  'GET /v1/map/{city}/tiles/forecast/{layer}/{timestamp}/{z}/{x}/{y}.mvt': {
    params: { ...signed('air', MAP_EXAMPLE_FORECAST_MS), ...MAP_EXAMPLE_TILE }, send: ['exp', 'sig'], problems: { not_found: TILE_NOT_FOUND },
  },
  'GET /v1/map/{city}/tiles/{static}.json': {
    params: signed('buildings'), send: ['exp', 'sig'], answer: TILEJSON_EXAMPLES.buildings,
    problems: { not_found: "The map of 'brussels' has no static layer 'thermal' (static layers: buildings)." },
  },
  'GET /v1/map/{city}/tiles/{static}/{z}/{x}/{y}.mvt': {
    params: { ...signed('buildings'), ...MAP_EXAMPLE_TILE }, send: ['exp', 'sig'], problems: { not_found: TILE_NOT_FOUND },
  },
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
  quota_exceeded: "This key's daily quota of 50 reports is used up; it resets at midnight UTC, in 41370 s.",
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

/** Whether the operation's 200 answer is a vector tile: curl then writes it to tile.mvt. */
function tileAnswer(op: OpenApiOperation): boolean {
  return Object.keys(op.responses['200']?.content ?? {}).includes('application/vnd.mapbox-vector-tile');
}

/** The curl command of the example request: a JSON body is sent with POST, a file is saved under its own name, a tile as tile.mvt. */
function curlSample(method: string, path: string, op: OpenApiOperation, ex: OperationExamples): CodeSample {
  const target = exampleTarget(path, ex).replace(/^\/v1/, '$BASE_URL');
  if (tileAnswer(op)) return { lang: 'Shell', label: 'curl', source: `curl -s -o tile.mvt \\\n  "${target}"` };
  if (!needsKey(op)) return { lang: 'Shell', label: 'curl', source: `curl -s "${target}"` };
  const lines = [`curl -s${ex.files ? ' -OJ' : ''}${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} -H "Authorization: Bearer $KEY"`];
  if (ex.body !== undefined) lines.push(`-H "Content-Type: application/json" -d '${JSON.stringify(ex.body)}'`);
  lines.push(`"${target}"`);
  return { lang: 'Shell', label: 'curl', source: lines.join(' \\\n  ') };
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
      const success = ['200', '202'].find((status) => responses[status] !== undefined);
      const ok = success === undefined ? undefined : responses[success];
      const media = ok?.content?.['application/json'];
      if (ok !== undefined && media !== undefined) {
        const answer = typeof ex.answer === 'function' ? (ex.answer as (docs: string) => unknown)(docsUrl) : ex.answer ?? (await ask(exampleTarget(path, ex)));
        if (answer !== undefined) responses[success!] = { ...ok, content: { ...ok.content, 'application/json': { ...media, example: answer } } };
      }
      if (ok !== undefined && ex.files !== undefined) {
        const content = Object.fromEntries(Object.entries(ok.content ?? {}).map(([type, m]) => [type, { ...m, example: ex.files![type] }]));
        responses[success!] = { ...ok, content };
      }
      const json = op.requestBody?.content?.['application/json'];
      const requestBody = json !== undefined && ex.body !== undefined
        ? { requestBody: { ...op.requestBody, content: { ...op.requestBody!.content, 'application/json': { ...json, example: ex.body } } } }
        : {};
      ops[method] = { ...op, ...(parameters ? { parameters } : {}), ...requestBody, responses, 'x-codeSamples': [curlSample(method, path, op, ex)] };
    }
    paths[path] = ops;
  }
  return { ...doc, paths };
}
