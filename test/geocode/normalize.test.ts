import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editDistance, foldText, isNumeric, tokenize } from '../../src/geocode/normalize.js';

describe('foldText and tokenize', () => {
  it('ignore case, accents, ligatures and punctuation', () => {
    expect(foldText('Rue du Marché aux Herbes 10, 1000 Bruxelles')).toBe('rue du marche aux herbes 10 1000 bruxelles');
    expect(tokenize('Grand-Place')).toEqual(['grand', 'place']);
    expect(tokenize("Rue de l'Œuvre — LIÈGE")).toEqual(['rue', 'de', 'l', 'oeuvre', 'liege']);
    expect(tokenize('Straße')).toEqual(['strasse']);
    expect(tokenize('  ,, ')).toEqual([]);
  });

  it('are idempotent', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => {
        expect(foldText(foldText(s))).toBe(foldText(s));
        for (const t of tokenize(s)) expect(t).toMatch(/^[a-z0-9]+$/);
      }),
      { seed: 7, numRuns: 500 },
    );
  });

  it('tell numbers from words', () => {
    expect(isNumeric('1000')).toBe(true);
    expect(isNumeric('10a')).toBe(false);
  });
});

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and adjacent transpositions', () => {
    expect(editDistance('korenmarket', 'korenmarkt', 3)).toBe(1);
    expect(editDistance('bruxels', 'bruxelles', 3)).toBe(2);
    expect(editDistance('lieeg', 'liege', 3)).toBe(1);
    expect(editDistance('same', 'same', 0)).toBe(0);
  });

  it('stops at cap + 1', () => {
    expect(editDistance('abcdef', 'uvwxyz', 2)).toBe(3);
    expect(editDistance('a', 'abcdefgh', 2)).toBe(3);
  });

  it('is symmetric', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (a, b) => {
        expect(editDistance(a, b, 10)).toBe(editDistance(b, a, 10));
      }),
      { seed: 11, numRuns: 500 },
    );
  });
});
