/**
 * `presentedKey` reads `Bearer <token>` without a regular expression when written the usual way; whatever the header
 * holds, it must agree with the grammar it had before (`^Bearer[ \t]+(\S+)[ \t]*$`, case-insensitive).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { presentedKey } from '../../src/api/plugins/auth.js';
import { ServiceError } from '../../src/errors.js';

const GRAMMAR = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const KEY = `svc_sk_${'aB3'.repeat(10)}xy`;

describe('presentedKey', () => {
  it('reads the token of any Authorization header as the bearer grammar does', () => {
    const piece = fc.constantFrom('Bearer', 'bearer', 'BEARER', ' ', '\t', '\u00a0', KEY, 'svc_pk_', '_', 'x', '=', '');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }).map((parts) => parts.join('')), fc.string({ maxLength: 3 }), (auth, tail) => {
        const header = auth + tail;
        expect(presentedKey({ authorization: header })).toBe(GRAMMAR.exec(header)?.[1]);
      }),
      { numRuns: 2000, seed: 20261121 },
    );
  });

  it('takes X-API-Key, trimmed, and refuses two different keys', () => {
    expect(presentedKey({ 'x-api-key': ` ${KEY} ` })).toBe(KEY);
    expect(presentedKey({ authorization: `Bearer ${KEY}`, 'x-api-key': KEY })).toBe(KEY);
    expect(presentedKey({})).toBeUndefined();
    expect(() => presentedKey({ authorization: `Bearer ${KEY}`, 'x-api-key': `${KEY}z` })).toThrow(ServiceError);
  });
});
