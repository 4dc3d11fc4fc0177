/**
 * Signed tile URLs: a signature verifies only for the key, city, layer and expiry it was made for, stops at its
 * expiry, is compared as canonical text, and no forgery among 10^5 random ones (fixed seed) is accepted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkSignature, signScope, signedQuery, URL_MAX_LIFETIME_S, URL_MIN_LIFETIME_S, urlExpiry, VerifiedSignatures,
} from '../../src/map/url-signing.js';

const SECRET = Buffer.from('a test secret of more than thirty-two characters');
const NOW = Date.parse('2025-07-15T12:30:00Z');
const EXP = urlExpiry(NOW);
const SCOPE = { keyId: 7, city: 'brussels', layer: 'thermal', exp: EXP };
const SIG = signScope(SECRET, SCOPE);

describe('urlExpiry', () => {
  it('is at least an hour ahead, on a whole hour, at most two hours ahead', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 4_000_000_000_000 }), (now) => {
      const exp = urlExpiry(now);
      expect(exp % 3600).toBe(0);
      expect(exp * 1000 - now).toBeGreaterThanOrEqual(URL_MIN_LIFETIME_S * 1000 - 999);
      expect(exp * 1000 - now).toBeLessThanOrEqual(URL_MAX_LIFETIME_S * 1000);
    }), { seed: 4201 });
    expect(new Date(urlExpiry(NOW) * 1000).toISOString()).toBe('2025-07-15T14:00:00.000Z');
    expect(new Date(urlExpiry(Date.parse('2025-07-15T12:00:00Z')) * 1000).toISOString()).toBe('2025-07-15T13:00:00.000Z');
  });
});

describe('checkSignature', () => {
  it('accepts the URL it signed, naming the key and expiry', () => {
    expect(checkSignature(SECRET, 'brussels', 'thermal', String(EXP), SIG, NOW)).toEqual({ ok: true, keyId: 7, exp: EXP });
    expect(signedQuery(SECRET, SCOPE)).toBe(`exp=${EXP}&sig=${SIG}`);
    expect(SIG).toMatch(/^7\.[A-Za-z0-9_-]{43}$/);
  });

  it('binds the key, the city, the layer, the expiry and the secret', () => {
    const mac = SIG.split('.')[1];
    expect(checkSignature(SECRET, 'brussels', 'thermal', String(EXP), `8.${mac}`, NOW)).toMatchObject({ ok: false, reason: 'mismatch' });
    expect(checkSignature(SECRET, 'ghent', 'thermal', String(EXP), SIG, NOW)).toMatchObject({ ok: false, reason: 'mismatch' });
    expect(checkSignature(SECRET, 'brussels', 'wind', String(EXP), SIG, NOW)).toMatchObject({ ok: false, reason: 'mismatch' });
    expect(checkSignature(SECRET, 'brussels', 'thermal', String(EXP + 3600), SIG, NOW)).toMatchObject({ ok: false, reason: 'mismatch' });
    expect(checkSignature(Buffer.from('another secret'), 'brussels', 'thermal', String(EXP), SIG, NOW)).toMatchObject({ ok: false, reason: 'mismatch' });
  });

  it('stops at the expiry', () => {
    expect(checkSignature(SECRET, 'brussels', 'thermal', String(EXP), SIG, EXP * 1000 - 1).ok).toBe(true);
    expect(checkSignature(SECRET, 'brussels', 'thermal', String(EXP), SIG, EXP * 1000)).toEqual({ ok: false, reason: 'expired', exp: EXP });
  });

  it('refuses anything but one well-formed exp and sig', () => {
    for (const [exp, sig] of [
      [undefined, SIG], [String(EXP), undefined], [[String(EXP), String(EXP)], SIG], [String(EXP), [SIG, SIG]], ['', SIG],
      [`0${EXP}`, SIG], [`+${EXP}`, SIG], [`${EXP}.0`, SIG], [String(EXP), `${SIG}=`], [String(EXP), SIG.replace('.', ':')],
      [String(EXP), `07.${SIG.split('.')[1]}`], [String(EXP), SIG.slice(0, -1)],
    ] as const) {
      expect(checkSignature(SECRET, 'brussels', 'thermal', exp, sig, NOW), `${String(exp)} ${String(sig)}`).toMatchObject({ ok: false, reason: 'malformed' });
    }
  });

  it('accepts exactly one text for a MAC (the spare bits of the last character count)', () => {
    const last = SIG.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (const c of alphabet) {
      if (c === last) continue;
      expect(checkSignature(SECRET, 'brussels', 'thermal', String(EXP), SIG.slice(0, -1) + c, NOW).ok).toBe(false);
    }
  });

  it('accepts none of 10^5 random forgeries', () => {
    const b64 = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_');
    const mac = fc.array(b64, { minLength: 43, maxLength: 43 }).map((cs) => cs.join(''));
    const mutated = fc.tuple(fc.integer({ min: 0, max: SIG.length - 1 }), b64).map(([i, c]) => SIG.slice(0, i) + c + SIG.slice(i + 1));
    const forgery = fc.record({
      keyId: fc.oneof(fc.constant(7), fc.integer({ min: 1, max: 1e9 })),
      city: fc.constantFrom('brussels', 'ghent', 'Brussels', 'brussels '),
      layer: fc.constantFrom('thermal', 'wind', 'air', 'buildings'),
      exp: fc.oneof(fc.constant(EXP), fc.integer({ min: 1, max: 99_999_999_999 })),
      sig: fc.oneof(mac, mutated, fc.string({ maxLength: 60 })),
    });
    let accepted = 0;
    fc.assert(fc.property(forgery, (f) => {
      const sig = f.sig.includes('.') ? f.sig : `${f.keyId}.${f.sig}`;
      const genuine = sig === SIG && f.city === 'brussels' && f.layer === 'thermal' && f.exp === EXP;
      if (!genuine && checkSignature(SECRET, f.city, f.layer, String(f.exp), sig, NOW).ok) accepted++;
    }), { seed: 4202, numRuns: 100_000 });
    expect(accepted).toBe(0);
  });
});

describe('VerifiedSignatures', () => {
  it('answers as checkSignature does, remembering only genuine pairs, still checking expiry, bounded', () => {
    const memo = new VerifiedSignatures(2);
    const args = ['brussels', 'thermal', String(EXP), SIG] as const;
    expect(memo.check(SECRET, ...args, NOW)).toEqual({ ok: true, keyId: 7, exp: EXP });
    expect(memo.size).toBe(1);
    // From memory: the same answer, even with another secret (no HMAC is computed), and the expiry still applies.
    expect(memo.check(Buffer.from('not the secret'), ...args, NOW)).toEqual({ ok: true, keyId: 7, exp: EXP });
    expect(memo.check(SECRET, ...args, EXP * 1000)).toEqual({ ok: false, reason: 'expired', exp: EXP });
    // Forgeries are answered but not remembered; other cities or layers do not share an entry.
    expect(memo.check(SECRET, 'brussels', 'wind', String(EXP), SIG, NOW)).toMatchObject({ ok: false, reason: 'mismatch' });
    expect(memo.check(SECRET, 'brussels', 'thermal', [String(EXP)], SIG, NOW)).toMatchObject({ ok: false, reason: 'malformed' });
    expect(memo.size).toBe(1);
    for (const layer of ['wind', 'air']) memo.check(SECRET, 'brussels', layer, String(EXP), signScope(SECRET, { ...SCOPE, layer }), NOW);
    expect(memo.size).toBe(2);
    // The oldest entry went: the first pair is checked by HMAC again, so a wrong secret now refuses it.
    expect(memo.check(Buffer.from('not the secret'), ...args, NOW)).toMatchObject({ ok: false, reason: 'mismatch' });
  });
});
