import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QUOTE_MAX_CHARS, quoteInput } from '../../src/util/quote-input.js';

describe('quoteInput', () => {
  it('quotes ordinary text as it is', () => {
    expect(quoteInput('Rue Neuve 1, 1000 Bruxelles')).toBe("'Rue Neuve 1, 1000 Bruxelles'");
    expect(quoteInput('Liège')).toBe("'Liège'");
  });

  it('escapes markup, quotes and control characters', () => {
    expect(quoteInput('<script>alert(1)</script>')).toBe("'\\u003cscript\\u003ealert(1)\\u003c/script\\u003e'");
    expect(quoteInput("it's\n\u0000\u202e")).toBe("'it\\'s\\n\\u0000\\u202e'");
    expect(quoteInput('a"b&c`')).toBe("'a\\u0022b\\u0026c\\u0060'");
  });

  it('shortens long input and marks the cut', () => {
    const q = quoteInput('x'.repeat(5000));
    expect(q).toBe(`'${'x'.repeat(QUOTE_MAX_CHARS)}…'`);
    expect(quoteInput('abcdef', 3)).toBe("'abc…'");
  });

  it('escapes lone surrogates and never cuts a character in half', () => {
    expect(quoteInput('\ud800x')).toBe("'\\ud800x'");
    expect(quoteInput('😀😀😀', 2)).toBe("'😀😀…'");
  });

  it('never repeats a key-shaped text', () => {
    expect(quoteInput(`key svc_sk_${'a1'.repeat(16)} and SVC_PK_x`)).toBe("'key [redacted] and [redacted]'");
  });

  it('never lets a raw control, markup or bidi character through and stays short (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (s) => {
        const q = quoteInput(s);
        expect(q).not.toMatch(/[\u0000-\u001f\u007f-\u009f<>&"`\u2028\u2029\u202a-\u202e\u2066-\u2069]/u);
        expect(Array.from(q).length).toBeLessThanOrEqual(QUOTE_MAX_CHARS * 6 + 3);
      }),
      { seed: 20261124, numRuns: 500 },
    );
  });
});
