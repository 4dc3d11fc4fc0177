/**
 * The format of API keys: `svc_sk_` or `svc_pk_` followed by 32 random base62 characters (about 190 bits). Only the
 * SHA-256 hash of a key is stored, so a lost key cannot be recovered, only replaced.
 */
import { hash, randomBytes } from 'node:crypto';
import type { KeyType } from './key-types.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_CHARS = 32;
const KEY_PATTERN = /^svc_(sk|pk)_[0-9A-Za-z]{32}$/;

/** A fresh key of the given type. Rejection sampling keeps every base62 character equally likely. */
export function generateKey(type: KeyType): string {
  let out = '';
  while (out.length < RANDOM_CHARS) {
    for (const byte of randomBytes(48)) {
      // 248 = 4 * 62: bytes at or above it would bias the low characters.
      if (byte < 248 && out.length < RANDOM_CHARS) out += BASE62[byte % 62];
    }
  }
  return `svc_${type}_${out}`;
}

/** The key type told by its prefix, or undefined when the string is not a well-formed key. */
export function keyTypeOf(key: string): KeyType | undefined {
  const match = KEY_PATTERN.exec(key);
  return match ? (match[1] as KeyType) : undefined;
}

/** Hex SHA-256 of a key: the only form in which keys are stored. Runs on every keyed request, hence the one-shot API. */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}
