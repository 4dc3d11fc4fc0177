/**
 * What a valid key is entitled to. Each check throws a ForbiddenError whose detail says why; the HTTP layer decides
 * when each runs (the spec's order: key state, product, origin, then after validation city and metric scope).
 */
import type { Metric, Product } from '../cities/city-types.js';
import { ForbiddenError } from '../errors.js';
import { quoteInput } from '../util/quote-input.js';
import { ANY, type ApiKeyRecord } from './key-types.js';
import { originAllowed } from './origins.js';

/** The browser-related request headers the origin rules read. */
export interface BrowserSignals {
  readonly origin: string | undefined;
  readonly secFetchSite: string | undefined;
}

/** The limits of keys that set none of their own (the operator's SVC_RATE_* and SVC_REPORTS_PER_DAY settings). */
export interface DefaultLimits {
  /** Requests per minute of a secret key. */
  readonly secretPerMin: number;
  /** Requests per minute of a publishable key. */
  readonly publishablePerMin: number;
  /** Reports per day (UTC) of a key with the reports product. */
  readonly reportsPerDay: number;
}

/** Effective limits of a key: its own overrides, else the configured defaults for its type. */
export interface KeyLimits {
  readonly ratePerMin: number;
  readonly reportsPerDay: number;
}

/**
 * What a key entitles to, as far as the answers' content goes: the cities and metrics it is scoped to. Work that
 * outlives the request (a report job) carries this instead of the key record.
 */
export type Entitlement = Pick<ApiKeyRecord, 'cities' | 'metrics'>;

/** The entitlement of a key. */
export function entitlementOf(key: ApiKeyRecord): Entitlement {
  return { cities: [...key.cities], metrics: [...key.metrics] };
}

/** Whether a scope list (`["*"]` or ids) includes `id`. */
export function inScope(scope: readonly string[], id: string): boolean {
  return scope.includes(ANY) || scope.includes(id);
}

/** The key's limits, with the configured defaults filled in. */
export function keyLimits(key: ApiKeyRecord, defaults: DefaultLimits): KeyLimits {
  const typeDefault = key.type === 'sk' ? defaults.secretPerMin : defaults.publishablePerMin;
  return { ratePerMin: key.ratePerMin ?? typeDefault, reportsPerDay: key.reportsPerDay ?? defaults.reportsPerDay };
}

/** Deactivated and expired keys are refused (403, not 401: the key is known). */
export function checkKeyState(key: ApiKeyRecord, nowMs: number): void {
  if (!key.active) throw new ForbiddenError('This API key has been deactivated; contact the service operator.');
  if (key.expiresAt !== undefined && nowMs >= Date.parse(key.expiresAt)) {
    throw new ForbiddenError(`This API key expired at ${key.expiresAt}.`);
  }
}

/** The key must include the product of the endpoint. */
export function checkProduct(key: ApiKeyRecord, product: Product): void {
  if (!inScope(key.products, product)) throw new ForbiddenError(`This API key does not include the product '${product}'.`);
}

/**
 * Browser rules: a secret key is refused whenever the request looks like it comes from a browser (an `Origin` or
 * `Sec-Fetch-Site` header); a publishable key sent with an `Origin` must find it in its allowlist.
 */
export function checkOrigin(key: ApiKeyRecord, signals: BrowserSignals): void {
  if (key.type === 'sk') {
    if (signals.origin !== undefined || signals.secFetchSite !== undefined) {
      throw new ForbiddenError('Secret keys (svc_sk_) must not be used from a browser; use a publishable key (svc_pk_).');
    }
    return;
  }
  if (signals.origin !== undefined && !originAllowed(signals.origin, key.origins)) {
    throw new ForbiddenError(`The origin ${quoteInput(signals.origin)} is not registered for this publishable key.`);
  }
}

/** The key must be scoped to the city that answers. */
export function checkCity(key: Entitlement, cityId: string): void {
  if (!inScope(key.cities, cityId)) throw new ForbiddenError(`This API key is not scoped to the city '${cityId}'.`);
}

/** Whether the key's metric scope includes `metric`. */
export function holdsMetric(key: Entitlement, metric: Metric): boolean {
  return inScope(key.metrics, metric);
}
