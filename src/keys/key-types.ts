/** Shapes of API keys as stored and as the operator describes them. Field names follow `GET /key` where they meet. */
import type { Metric, Product } from '../cities/city-types.js';

/** `sk` secret (server side only) or `pk` publishable (browser pages on registered origins). */
export type KeyType = 'sk' | 'pk';

/** The scope wildcard: `["*"]` means every city, product or metric. */
export const ANY = '*';

/** One issued key, as stored: the key itself is never kept, only its SHA-256 hash. */
export interface ApiKeyRecord {
  readonly id: number;
  readonly type: KeyType;
  readonly label: string;
  /** City ids, or `["*"]`. */
  readonly cities: readonly string[];
  /** Product ids, or `["*"]`. */
  readonly products: readonly (Product | typeof ANY)[];
  /** Metric ids, or `["*"]`. */
  readonly metrics: readonly (Metric | typeof ANY)[];
  /** Normalised origins (`https://app.example.org`), possibly with one leading `*.` label wildcard. */
  readonly origins: readonly string[];
  /** Per-key override of the requests-per-minute default; undefined means the configured default. */
  readonly ratePerMin: number | undefined;
  /** Per-key override of the reports-per-day default; undefined means the configured default. */
  readonly reportsPerDay: number | undefined;
  /** ISO 8601 UTC instant of issue. */
  readonly createdUtc: string;
  /** ISO 8601 UTC instant after which the key stops working; undefined for a key that does not expire. */
  readonly expiresAt: string | undefined;
  readonly active: boolean;
  readonly deactivatedUtc: string | undefined;
}

/** What the operator sets when issuing a key; omitted scopes mean `["*"]`, omitted origins none. */
export interface KeySpec {
  readonly type: KeyType;
  readonly label: string;
  readonly cities?: readonly string[] | undefined;
  readonly products?: readonly (Product | typeof ANY)[] | undefined;
  readonly metrics?: readonly (Metric | typeof ANY)[] | undefined;
  readonly origins?: readonly string[] | undefined;
  readonly ratePerMin?: number | undefined;
  readonly reportsPerDay?: number | undefined;
  readonly expiresAt?: string | undefined;
}

/** Changes to an issued key; `null` clears an override or an expiry, `active: true` reactivates. */
export interface KeyChanges {
  readonly label?: string | undefined;
  readonly cities?: readonly string[] | undefined;
  readonly products?: readonly (Product | typeof ANY)[] | undefined;
  readonly metrics?: readonly (Metric | typeof ANY)[] | undefined;
  readonly origins?: readonly string[] | undefined;
  readonly ratePerMin?: number | null | undefined;
  readonly reportsPerDay?: number | null | undefined;
  readonly expiresAt?: string | null | undefined;
  readonly active?: boolean | undefined;
}

/** The read side the HTTP layer needs: find the record of a presented key, or of the key a signed URL names. */
export interface KeyLookup {
  /** The record whose hash matches `key`, or undefined for an unknown or malformed key. */
  findByKey(key: string): ApiKeyRecord | undefined;
  /** The record with this id (signed tile URLs carry it), or undefined when there is none. */
  findById(id: number): ApiKeyRecord | undefined;
}
