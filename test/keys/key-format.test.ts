import { describe, expect, it } from 'vitest';
import { generateKey, hashKey, keyTypeOf } from '../../src/keys/key-format.js';

describe('key format', () => {
  it('generates svc_sk_/svc_pk_ keys with 32 base62 characters', () => {
    for (const type of ['sk', 'pk'] as const) {
      const key = generateKey(type);
      expect(key).toMatch(new RegExp(`^svc_${type}_[0-9A-Za-z]{32}$`));
      expect(keyTypeOf(key)).toBe(type);
    }
  });

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 500 }, () => generateKey('sk')));
    expect(keys.size).toBe(500);
  });

  it('uses every base62 character', () => {
    const seen = new Set(Array.from({ length: 200 }, () => generateKey('pk').slice(7)).join(''));
    expect(seen.size).toBe(62);
  });

  it('rejects malformed keys', () => {
    for (const bad of ['', 'svc_sk_', 'svc_xx_' + 'a'.repeat(32), 'svc_sk_' + 'a'.repeat(31), 'svc_sk_' + 'a'.repeat(33), 'svc_sk_' + '-'.repeat(32)]) {
      expect(keyTypeOf(bad)).toBeUndefined();
    }
  });

  it('hashes with SHA-256 (hex)', () => {
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
