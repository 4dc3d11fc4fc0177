/** Assertions shared by the API tests: problem documents and the headers every response carries. */
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { PROBLEMS, type ProblemCode } from '../../../src/api/problems.js';

/** UUID v4, as `X-Request-Id` must be. */
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * The docs URL of an application built with the default configuration and driven by injection (not listening): the
 * service's own `/docs` at the configured host and port.
 */
export const DEFAULT_DOCS_URL = 'http://127.0.0.1:8080/docs';

/** The response is a complete problem document for `code`, consistent with its headers; returns the body. */
export function expectProblem(res: LightMyRequestResponse, code: ProblemCode, docsUrl = DEFAULT_DOCS_URL) {
  const entry = PROBLEMS[code];
  expect(res.statusCode, res.body).toBe(entry.status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = res.json() as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(['type', 'code', 'title', 'status', 'detail', 'request_id']);
  expect(body).toMatchObject({ type: `${docsUrl}/errors#${code}`, code, title: entry.title, status: entry.status });
  expect(typeof body.detail).toBe('string');
  expect((body.detail as string).length).toBeGreaterThan(0);
  expect(body.request_id).toMatch(UUID_V4);
  expect(res.headers['x-request-id']).toBe(body.request_id);
  return body as { type: string; code: string; title: string; status: number; detail: string; request_id: string };
}

/** The response carries the three rate-limit headers with these values. */
export function expectRateHeaders(res: LightMyRequestResponse, limit: number, remaining: number, resetEpochS: number): void {
  expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(res.headers['x-ratelimit-remaining']).toBe(String(remaining));
  expect(res.headers['x-ratelimit-reset']).toBe(String(resetEpochS));
}
