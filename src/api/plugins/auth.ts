/**
 * API keys at the HTTP edge. `app.keyGuard(product)` is the onRequest hook of keyed endpoints; it runs before body
 * parsing and validation, in the spec's order: 401 (key missing or unknown) → 403 (key state, product, origin) →
 * 429 (per-minute limit). City and metric scope are checked later, by the services, after validation.
 * `app.optionalKey` serves keyless endpoints that describe themselves differently when a key is presented.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Product } from '../../cities/city-types.js';
import type { DefaultLimits } from '../../keys/entitlement.js';
import { UnauthorizedError } from '../../errors.js';
import { checkKeyState, checkOrigin, checkProduct, keyLimits, type BrowserSignals } from '../../keys/entitlement.js';
import type { ApiKeyRecord, KeyLookup } from '../../keys/key-types.js';
import type { RateLimiter } from '../../keys/rate-limiter.js';
import type { Clock } from '../../util/clock.js';
import { enforceRateLimit, keyBucket, reportRateLimit } from './rate-limit.js';
import { shared } from './shared.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated key; null on keyless requests. */
    apiKey: ApiKeyRecord | null;
  }
  interface FastifyInstance {
    /** onRequest hook of a keyed endpoint; `'any'` accepts every product (GET /key). */
    keyGuard(product: Product | 'any'): onRequestAsyncHookHandler;
    /** onRequest hook of a keyless endpoint: checks a key only when one is presented, never rate-limits. */
    optionalKey: onRequestAsyncHookHandler;
    /**
     * Counts `units` − 1 more requests of a keyed request whose work is known only after its body is read (the guard
     * counted the first); 429 `rate_limited` when the window lacks room for them, nothing more counted then.
     */
    chargeWork(request: FastifyRequest, reply: FastifyReply, units: number): Promise<void>;
  }
}

/** What the auth plugin needs. */
export interface AuthOptions {
  readonly keys: KeyLookup;
  readonly limiter: RateLimiter;
  readonly clock: Clock;
  readonly limits: DefaultLimits;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The token of `Bearer <token>` when written the usual way (one space, then only letters, digits and `_`, as keys
 * are), read without a regular expression; undefined otherwise, and then BEARER decides.
 */
function plainBearer(auth: string): string | undefined {
  if (auth.length <= 7 || !auth.startsWith('Bearer ')) return undefined;
  for (let i = 7; i < auth.length; i++) {
    const c = auth.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95)) return undefined;
  }
  return auth.slice(7);
}

/** The key presented by `Authorization: Bearer <key>` or `X-API-Key: <key>`; undefined when neither is present. */
export function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const auth = header(headers, 'authorization');
  const bearer = auth === undefined ? undefined : (plainBearer(auth) ?? BEARER.exec(auth)?.[1]);
  const apiKey = header(headers, 'x-api-key')?.trim() || undefined;
  if (bearer !== undefined && apiKey !== undefined && bearer !== apiKey) {
    throw new UnauthorizedError('Two different API keys were presented (Authorization and X-API-Key); send one.');
  }
  return bearer ?? apiKey;
}

function identify(keys: KeyLookup, request: FastifyRequest, given: string | undefined): ApiKeyRecord {
  if (given === undefined) {
    throw new UnauthorizedError('An API key is required: send Authorization: Bearer <key> or X-API-Key: <key>.');
  }
  const key = keys.findByKey(given);
  if (key === undefined) throw new UnauthorizedError('The API key is not recognised.');
  request.apiKey = key;
  return key;
}

/** The browser signals of a request (its `Origin` and `Sec-Fetch-Site` headers). */
function browserSignals(headers: IncomingHttpHeaders): BrowserSignals {
  return { origin: header(headers, 'origin'), secFetchSite: header(headers, 'sec-fetch-site') };
}

/** Decorates the application with `keyGuard` and `optionalKey`. */
export const authPlugin: FastifyPluginAsync<AuthOptions> = shared(async (app, options) => {
  app.decorateRequest('apiKey', null);

  app.decorate('keyGuard', (product: Product | 'any') => {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const key = identify(options.keys, request, presentedKey(request.headers));
      const now = options.clock.now();
      const bucket = keyBucket(key);
      const limit = keyLimits(key, options.limits).ratePerMin;
      try {
        checkKeyState(key, now);
        if (product !== 'any') checkProduct(key, product);
        checkOrigin(key, browserSignals(request.headers));
      } catch (err) {
        await reportRateLimit(options.limiter, reply, bucket, limit, now);
        throw err;
      }
      await enforceRateLimit(options.limiter, reply, bucket, limit, now);
    };
  });

  app.decorate('chargeWork', async (request: FastifyRequest, reply: FastifyReply, units: number) => {
    const key = request.apiKey;
    if (key === null || units <= 1) return;
    const limit = keyLimits(key, options.limits).ratePerMin;
    await enforceRateLimit(options.limiter, reply, keyBucket(key), limit, options.clock.now(), units - 1, true);
  });

  app.decorate('optionalKey', async (request: FastifyRequest) => {
    const given = presentedKey(request.headers);
    if (given === undefined) return;
    const key = identify(options.keys, request, given);
    checkKeyState(key, options.clock.now());
    checkOrigin(key, browserSignals(request.headers));
  });
});
