/**
 * The stats fast path: a repeated `GET /v1/historical/stats` whose complete answer is stored (stats-responses.ts) is
 * answered straight from the HTTP server's request event, before Fastify routes it. It applies the same rules as the
 * full path, through the same functions and the same rate limiter: the key is identified, its state, product and
 * city scope are checked, and the request counts against the key's per-minute window. Only a request that would
 * get exactly the stored `200` is answered here; any other (no stored answer, a refused key, a full window, a body,
 * a browser's `Origin`, a server shutting down) goes to the full application unchanged and unread, so every error and
 * every header rule has one implementation. The answer carries the headers the full path sends: `X-Request-Id`,
 * `X-Content-Type-Options`, CORS, `X-RateLimit-*`, `X-Cache: hit`, the content type and length.
 *
 * Why: a cached answer costs the full path some 120 µs of routing, hooks, validation, location and envelope
 * assembly per request; here it is a key look-up, a counter and one write (docs/benchmarks.md, HTTP).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DefaultLimits } from '../keys/entitlement.js';
import { checkCity, checkKeyState, checkProduct, keyLimits } from '../keys/entitlement.js';
import type { ApiKeyRecord, KeyLookup } from '../keys/key-types.js';
import type { RateDecision, RateLimiter } from '../keys/rate-limiter.js';
import type { Clock } from '../util/clock.js';
import { FastPath, hasBody, type RequestHandler } from './fast-path.js';
import { presentedKey } from './plugins/auth.js';
import { hostHeaderProblem } from './plugins/host-header.js';
import { keyBucket } from './plugins/rate-limit.js';
import { redactKeys } from './redact-keys.js';
import { metricScope, type StatsResponseCache, type StoredStatsAnswer } from '../services/stats-responses.js';

/** What the fast path needs: the same key look-up, limiter, clock and limits as the full path. */
export interface StatsFastPathDeps {
  readonly answers: StatsResponseCache;
  readonly keys: KeyLookup;
  readonly limiter: RateLimiter;
  readonly clock: Clock;
  readonly limits: DefaultLimits;
}

/** Requests this path may answer start with this (the route with a query string). */
const STATS_URL_PREFIX = '/v1/historical/stats?';
const JSON_TYPE = 'application/json; charset=utf-8';

/** What a request needs of its key besides the checks, derived once per record. */
interface KeyTraits {
  readonly scope: number;
  readonly bucket: string;
  readonly ratePerMin: number;
}

/** Answers stored statistics requests; everything else goes on to the application. */
export class StatsFastPath extends FastPath {
  readonly #deps: StatsFastPathDeps;
  /** Per key record: the key look-up hands out one record object per key while it is fresh. */
  readonly #traits = new WeakMap<ApiKeyRecord, KeyTraits>();

  constructor(deps: StatsFastPathDeps) {
    super();
    this.#deps = deps;
  }

  /** Answers `req` from a stored answer when it may; otherwise hands it to `next` (the application). */
  handle(req: IncomingMessage, res: ServerResponse, next: RequestHandler): void {
    if (!this.takes(req, STATS_URL_PREFIX)) {
      next(req, res);
      return;
    }
    const started = this.startTimer();
    const now = this.#deps.clock.now();
    const found = this.#replayable(req, req.url!, now);
    if (found === undefined) {
      this.#pass(req, res, next);
      return;
    }
    const { traits, answer } = found;
    const { limiter } = this.#deps;
    // A full window is not counted: the application then answers 429 with its headers.
    const answerWith = (decision: RateDecision) =>
      decision.allowed ? this.#answer(req, res, answer, decision, started) : this.#pass(req, res, next);
    if (limiter.consumeNow !== undefined) {
      answerWith(limiter.consumeNow(traits.bucket, traits.ratePerMin, now));
    } else {
      limiter.consume(traits.bucket, traits.ratePerMin, now).then(answerWith, () => this.#pass(req, res, next));
    }
  }

  /** The key and stored answer when the request would get exactly that answer from the application. */
  #replayable(req: IncomingMessage, url: string, now: number): { traits: KeyTraits; answer: StoredStatsAnswer } | undefined {
    const { headers } = req;
    // A body, or a browser (CORS and origin rules), is the application's business.
    if (hasBody(headers)) return undefined;
    if (headers.origin !== undefined || headers['sec-fetch-site'] !== undefined) return undefined;
    // A missing or repeated Host: the application refuses it.
    if (hostHeaderProblem(req) !== undefined) return undefined;
    let given: string | undefined;
    try {
      given = presentedKey(headers);
    } catch {
      return undefined; // two different keys: the application explains
    }
    const key = given === undefined ? undefined : this.#deps.keys.findByKey(given);
    if (key === undefined) return undefined;
    const traits = this.#traitsOf(key);
    const answer = this.#deps.answers.get(traits.scope, url);
    if (answer === undefined) return undefined;
    try {
      checkKeyState(key, now);
      checkProduct(key, 'historical');
      if (answer.cityId !== null) checkCity(key, answer.cityId);
    } catch {
      return undefined; // refused: the application answers 403 with the reason
    }
    return { traits, answer };
  }

  #traitsOf(key: ApiKeyRecord): KeyTraits {
    let traits = this.#traits.get(key);
    if (traits === undefined) {
      traits = { scope: metricScope(key), bucket: keyBucket(key), ratePerMin: keyLimits(key, this.#deps.limits).ratePerMin };
      this.#traits.set(key, traits);
    }
    return traits;
  }

  #pass(req: IncomingMessage, res: ServerResponse, next: RequestHandler): void {
    this.countPassed();
    next(req, res);
  }

  #answer(req: IncomingMessage, res: ServerResponse, answer: StoredStatsAnswer, decision: RateDecision, started: number): void {
    const { id, headers } = this.answerHeaders();
    headers['x-ratelimit-limit'] = String(decision.limit);
    headers['x-ratelimit-remaining'] = String(decision.remaining);
    headers['x-ratelimit-reset'] = String(decision.resetEpochS);
    headers['x-cache'] = 'hit';
    headers['content-type'] = JSON_TYPE;
    headers['content-length'] = answer.body.length;
    // Closed while the limiter answered: end the connection with this response, as the application does then.
    if (!this.open) headers.connection = 'close';
    this.send(req, res, id, 200, headers, answer.body, started, redactKeys);
  }
}
