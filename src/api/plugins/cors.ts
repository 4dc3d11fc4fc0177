/**
 * CORS, so publishable keys work from browser pages. Keys travel in headers, never cookies, so every origin may read
 * responses (`Access-Control-Allow-Origin: *`, no credentials); which origins may *use* a key is decided by the key's
 * allowlist (src/keys/entitlement.ts), which answers 403. Preflights (any OPTIONS request) answer 204 without a key.
 */
import cors from '@fastify/cors';
import type { FastifyPluginAsync } from 'fastify';
import { shared } from './shared.js';

/** Response headers a browser script may read. */
export const EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'X-Cache',
  'ETag',
  'Content-Disposition',
  'Location',
  'Idempotent-Replayed',
];

/** Registers @fastify/cors on the application. */
export const corsPlugin: FastifyPluginAsync = shared(async (app) => {
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'X-API-Key', 'Content-Type', 'If-None-Match', 'Idempotency-Key'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
    // A non-preflight OPTIONS request is answered like a preflight rather than with a bare-text 400.
    strictPreflight: false,
  });
});
