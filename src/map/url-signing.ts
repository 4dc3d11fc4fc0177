/**
 * Signed tile URLs. The map catalog stamps every TileJSON URL with `exp` (expiry, epoch seconds) and `sig`; TileJSON
 * carries both into its tile template, so tile requests are authorised by the same pair without a key.
 *
 * `sig` = `<key id>.<MAC>`, MAC = base64url (no padding) of HMAC-SHA256(secret, "svc-tile-v1\n<key id>\n<city>\n
 * <layer>\n<exp>"). The key id travels in clear so the server can find the key (and refuse the URLs of a key that
 * was deactivated since); it grants nothing without the MAC. A URL therefore serves exactly one key, one city and one
 * layer (live and forecast URLs of a layer share it; the timestamp and the tile address are not signed) until `exp`.
 * MACs are compared in constant time, as text.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a signature binds. */
export interface SignedScope {
  readonly keyId: number;
  readonly city: string;
  readonly layer: string;
  /** Expiry, epoch seconds. */
  readonly exp: number;
}

/** Shortest lifetime of a signed URL; the expiry is then rounded up to the next whole hour (1 to 2 hours). */
export const URL_MIN_LIFETIME_S = 3_600;

/** Longest lifetime a signed URL can have, seconds. */
export const URL_MAX_LIFETIME_S = 2 * 3_600;

const EXP = /^[1-9][0-9]{0,11}$/;
const SIG = /^([1-9][0-9]{0,9})\.([A-Za-z0-9_-]{43})$/;

/** The expiry of URLs signed at `nowMs`: at least URL_MIN_LIFETIME_S ahead, rounded up to the hour (epoch seconds). */
export function urlExpiry(nowMs: number): number {
  return Math.ceil((Math.floor(nowMs / 1000) + URL_MIN_LIFETIME_S) / 3_600) * 3_600;
}

function mac(secret: Uint8Array, scope: SignedScope): Buffer {
  return createHmac('sha256', secret).update(`svc-tile-v1\n${scope.keyId}\n${scope.city}\n${scope.layer}\n${scope.exp}`).digest();
}

/** The `sig` value for `scope`. */
export function signScope(secret: Uint8Array, scope: SignedScope): string {
  return `${scope.keyId}.${mac(secret, scope).toString('base64url')}`;
}

/** The query string `exp=…&sig=…` for `scope`. */
export function signedQuery(secret: Uint8Array, scope: SignedScope): string {
  return `exp=${scope.exp}&sig=${signScope(secret, scope)}`;
}

/** Outcome of checking a URL's `exp` and `sig`. */
export type SignatureCheck =
  | { readonly ok: true; readonly keyId: number; readonly exp: number }
  | { readonly ok: false; readonly reason: 'malformed' | 'expired' | 'mismatch'; readonly exp?: number };

/**
 * Checks `exp` and `sig` (as received; anything not a single well-formed string is malformed) for a URL of `city`
 * and `layer` at `nowMs`. An expired URL is reported as such only when its signature is genuine.
 */
export function checkSignature(secret: Uint8Array, city: string, layer: string, exp: unknown, sig: unknown, nowMs: number): SignatureCheck {
  if (typeof exp !== 'string' || typeof sig !== 'string' || !EXP.test(exp)) return { ok: false, reason: 'malformed' };
  const parts = SIG.exec(sig);
  if (parts === null) return { ok: false, reason: 'malformed' };
  const keyId = Number(parts[1]);
  const expS = Number(exp);
  // The text is compared, not the decoded bytes: the last of 43 characters carries 2 spare bits, and a URL must have
  // exactly one valid signature.
  const expected = Buffer.from(mac(secret, { keyId, city, layer, exp: expS }).toString('base64url'), 'latin1');
  if (!timingSafeEqual(Buffer.from(parts[2], 'latin1'), expected)) return { ok: false, reason: 'mismatch' };
  if (nowMs >= expS * 1000) return { ok: false, reason: 'expired', exp: expS };
  return { ok: true, keyId, exp: expS };
}

/**
 * Signatures found genuine lately, so a URL requested over and over (every tile of a tileset carries the same pair)
 * costs one HMAC rather than one per request. Only genuine signatures are kept (a forgery costs an HMAC each time and
 * no memory), at most `maxEntries`, the oldest dropped first; expiry is still checked on every request.
 */
export class VerifiedSignatures {
  readonly #entries = new Map<string, { readonly keyId: number; readonly exp: number }>();
  readonly #maxEntries: number;

  constructor(maxEntries = 10_000) {
    this.#maxEntries = Math.max(1, maxEntries);
  }

  /** `checkSignature`, answered from memory for a pair already found genuine. */
  check(secret: Uint8Array, city: string, layer: string, exp: unknown, sig: unknown, nowMs: number): SignatureCheck {
    const id = typeof exp === 'string' && typeof sig === 'string' ? `${city}\n${layer}\n${exp}\n${sig}` : undefined;
    const known = id === undefined ? undefined : this.#entries.get(id);
    if (known !== undefined) return nowMs >= known.exp * 1000 ? { ok: false, reason: 'expired', exp: known.exp } : { ok: true, ...known };
    const result = checkSignature(secret, city, layer, exp, sig, nowMs);
    if (result.ok && id !== undefined) {
      if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(id, { keyId: result.keyId, exp: result.exp });
    }
    return result;
  }

  /** Pairs held. */
  get size(): number {
    return this.#entries.size;
  }
}
