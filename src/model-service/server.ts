/**
 * The model service on the wire (src/upstream/model-service-contract.ts, docs/model-service.md), on plain `node:http`: a handful of GET routes,
 * strict query parsing, JSON bodies, `{code, status, detail}` errors, and a float32 body for grid slices. It runs
 * inside the API process (the embedded default) or as its own process (`svc model-service`).
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { endianness } from 'node:os';
import { DamagedDataError, ServiceError } from '../errors.js';
import { MODEL_ERROR_STATUS, STATIC_ARRAY_DTYPES, type ModelErrorBody, type ModelErrorCode } from '../upstream/model-service-contract.js';
import type { ModelService } from './model-service.js';
import { parseRecordsQuery, parseSliceTimestamp, QueryError } from './query.js';
import { isoHour } from './timeline.js';

/** Where failures of the service itself are reported (stderr by default). */
export type ModelServiceLog = (message: string, err: unknown) => void;

/** The body of a successful answer: JSON, or a binary slice with its headers. */
type Answer = { json: unknown } | { binary: Uint8Array; headers: Record<string, string> };

function send(res: ServerResponse, method: string, status: number, type: string, body: Uint8Array, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'content-length': String(body.byteLength), 'cache-control': 'no-store', ...headers });
  res.end(method === 'HEAD' ? undefined : body);
}

function sendError(res: ServerResponse, method: string, code: ModelErrorCode, detail: string, headers: Record<string, string> = {}): void {
  const body: ModelErrorBody = { code, status: MODEL_ERROR_STATUS[code], detail };
  send(res, method, body.status, 'application/json; charset=utf-8', Buffer.from(JSON.stringify(body)), headers);
}

/** float32 values as little-endian bytes, whatever the platform's byte order (bytes pass through). */
function littleEndian(values: Float32Array | Uint8Array): Uint8Array {
  if (values instanceof Uint8Array) return values;
  if (endianness() === 'LE') return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const out = new DataView(new ArrayBuffer(values.byteLength));
  values.forEach((v, i) => out.setFloat32(i * 4, v, true));
  return new Uint8Array(out.buffer);
}

/** Routes one request path (already split into decoded segments) to the service. */
async function route(service: ModelService, segments: readonly string[], query: URLSearchParams): Promise<Answer | undefined> {
  const [root, id, action, ...rest] = segments;
  if (root === 'health' && segments.length === 1) return { json: service.health() };
  if (root !== 'datasets') return undefined;
  if (segments.length === 1) return { json: { datasets: service.list() } };
  if (segments.length === 2) return { json: service.info(id) };
  if (action === 'timesteps' && rest.length === 0) return { json: service.timesteps(id) };
  if (action === 'live' && rest.length === 0) return { json: await service.live(id, parseRecordsQuery(query, true)) };
  if (action === 'forecast' && rest.length === 0) return { json: await service.forecast(id, parseRecordsQuery(query, false)) };
  if (action === 'slices' && rest.length === 2) {
    const slice = await service.slice(id, rest[1], parseSliceTimestamp(rest[0]));
    return {
      binary: littleEndian(slice.values),
      headers: {
        'x-grid-nx': String(slice.nx),
        'x-grid-ny': String(slice.ny),
        'x-slice-hour': isoHour(slice.step.targetMs),
        'x-slice-lead-h': String(slice.step.leadH),
      },
    };
  }
  if (action === 'static' && rest.length === 1) {
    const array = await service.staticArray(id, rest[0]);
    return {
      binary: littleEndian(array.values),
      headers: { 'x-grid-nx': String(array.nx), 'x-grid-ny': String(array.ny), 'x-array-dtype': STATIC_ARRAY_DTYPES[array.name] },
    };
  }
  return undefined;
}

/** The request listener of the model service. */
export function modelServiceHandler(service: ModelService, log: ModelServiceLog = (m, e) => console.error(m, e)): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    void (async () => {
      let url: URL;
      let segments: string[];
      try {
        url = new URL(req.url ?? '/', 'http://model.invalid');
        segments = url.pathname.split('/').filter((s) => s !== '').map((s) => decodeURIComponent(s));
      } catch {
        return sendError(res, method, 'validation_error', 'The request URL is malformed.');
      }
      if (method !== 'GET' && method !== 'HEAD') {
        return sendError(res, method, 'method_not_allowed', `${method} is not allowed; the model service answers GET and HEAD.`, { allow: 'GET, HEAD' });
      }
      try {
        const answer = await route(service, segments, url.searchParams);
        if (answer === undefined) return sendError(res, method, 'not_found', `No resource at ${url.pathname}.`);
        if ('json' in answer) return send(res, method, 200, 'application/json; charset=utf-8', Buffer.from(JSON.stringify(answer.json)));
        return send(res, method, 200, 'application/octet-stream', answer.binary, answer.headers);
      } catch (err) {
        if (err instanceof QueryError) return sendError(res, method, 'validation_error', err.message);
        if (err instanceof DamagedDataError) {
          service.damage.report(err);
          return sendError(res, method, 'dataset_damaged', err.message);
        }
        const code = err instanceof ServiceError ? err.code : 'internal_error';
        if (code === 'validation_error' || code === 'not_found' || code === 'outside_coverage') {
          return sendError(res, method, code, (err as Error).message);
        }
        log(`model service: ${method} ${url.pathname} failed`, err);
        return sendError(res, method, 'internal_error', 'The model service failed on this request.');
      }
    })().catch((err: unknown) => {
      log('model service: could not answer', err);
      res.destroy();
    });
  };
}

/** A listening server. */
export interface RunningModelService {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly port: number;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** Starts an HTTP server for `listener` on host and port (0 picks a free port). */
export function listenModelService(listener: RequestListener, host: string, port: number): Promise<RunningModelService> {
  const server = createServer({ keepAliveTimeout: 5_000 }, listener);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${shownHost}:${address.port}`,
        port: address.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
