/**
 * The real service for end-to-end tests, built by `createServer` exactly as `svc serve` builds it: a temporary SQLite
 * file, the local compute pool (2 threads) over the fixture datasets, the embedded geocoder and the embedded model
 * service. It listens on 127.0.0.1 at an ephemeral port and is driven with `fetch`. Every response passes through
 * `checkCommon`, so each one is checked for a UUID v4 `X-Request-Id` (equal to `request_id` on problem documents).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { loadConfig, type ConfigOverrides } from '../../../src/config.js';
import type { KeySpec } from '../../../src/keys/key-types.js';
import { createServer, type ReportsWiring, type Server } from '../../../src/nodes/api-node.js';
import { fixtureDataDir } from '../../helpers/fixtures.js';
import { UUID_V4 } from '../../api/support/problem.js';

/** A response read to the end: status, headers and the body as text (parsed JSON in `json` when it is JSON). */
export interface E2eResponse {
  /** The URL that was asked. */
  readonly url: string;
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: any;
}

/** A listening service and helpers to drive it. */
export interface E2eServer {
  readonly server: Server;
  /** `http://127.0.0.1:<port>`. */
  readonly base: string;
  /** Issues a key through the key store, as the operator CLI does (defaults: secret, every scope). */
  issue(spec?: Partial<KeySpec>): string;
  /** GET `path` (starting with `/v1/`) with an optional key sent as a bearer token. */
  get(path: string, key?: string, headers?: Record<string, string>): Promise<E2eResponse>;
  /** POST `body` (an object as JSON, a string as is) to `path` with an optional key; content type JSON unless given. */
  post(path: string, body: unknown, key?: string, headers?: Record<string, string>): Promise<E2eResponse>;
  /** Shuts the service down gracefully (idempotent) and deletes the temporary database. */
  close(): Promise<void>;
}

/** Problem document media type. */
const PROBLEM_TYPE = /^application\/problem\+json/;

/** Checks what every response must carry; returns the parsed body. */
export function checkCommon(status: number, headers: Headers, text: string): unknown {
  const id = headers.get('x-request-id');
  expect(id, 'X-Request-Id').toMatch(UUID_V4);
  const type = headers.get('content-type') ?? '';
  if (text === '' || !/json/.test(type)) return undefined;
  const body = JSON.parse(text) as Record<string, unknown>;
  if (PROBLEM_TYPE.test(type)) {
    expect(body.status).toBe(status);
    expect(body.request_id).toBe(id);
  }
  return body;
}

/** Reads a fetch response to the end and checks the common headers. */
export async function readResponse(res: Response): Promise<E2eResponse> {
  const text = await res.text();
  return { url: res.url, status: res.status, headers: res.headers, text, json: checkCommon(res.status, res.headers, text) };
}

/** Options of the end-to-end server. */
export interface E2eOptions {
  /** Datasets to serve; the fixture datasets by default. */
  readonly dataDir?: string;
  /** The reports product's wiring; the service's own (`DEFAULT_REPORTS_WIRING`) unless given. */
  readonly reports?: ReportsWiring;
  /** Further configuration (the database and the reports directory are in a temporary directory). */
  readonly config?: ConfigOverrides;
}

/** Starts the real service over the fixture datasets (or the datasets of `dataDir`) on 127.0.0.1, port 0. */
export async function startE2eServer(options: E2eOptions = {}): Promise<E2eServer> {
  const dataDir = options.dataDir ?? await fixtureDataDir();
  const dir = await mkdtemp(join(tmpdir(), 'svc-e2e-'));
  const config = loadConfig({}, {
    logLevel: 'silent', dataDir, dbFile: join(dir, 'svc.sqlite'), reportsDir: join(dir, 'reports'), computeThreads: 2, port: 0,
    ...options.config,
  });
  let server: Server;
  try {
    server = await createServer(config, options.reports ? { reports: options.reports } : {});
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  const base = await server.app.listen({ host: '127.0.0.1', port: 0 });
  return {
    server,
    base,
    issue: (spec = {}) => server.keys.create({ type: 'sk', label: 'e2e', ...spec }, new Date()).key,
    get: async (path, key, headers = {}) => {
      const auth: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` };
      return readResponse(await fetch(`${base}${path}`, { headers: { ...auth, ...headers } }));
    },
    post: async (path, body, key, headers = {}) => {
      const auth: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` };
      const payload = typeof body === 'string' ? body : JSON.stringify(body);
      return readResponse(await fetch(`${base}${path}`, {
        method: 'POST', headers: { 'content-type': 'application/json', ...auth, ...headers }, body: payload,
      }));
    },
    close: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Expects a problem document with this status and code; returns its body. Its type points at the served docs of the
 * server that answered (the default: the server's own `/docs` at the address it listens on, port 0 resolved).
 */
export function expectProblem(res: E2eResponse, status: number, code: string): Record<string, unknown> {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(PROBLEM_TYPE);
  expect(res.json).toMatchObject({ status, code, type: `${new URL(res.url).origin}/docs/errors#${code}` });
  return res.json as Record<string, unknown>;
}

/** Resolves once `done()` holds, checking after each turn of the event loop (no wall-clock waits). */
export async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100_000 && !done(); i++) await new Promise((r) => setImmediate(r));
  if (!done()) throw new Error('condition never held');
}
