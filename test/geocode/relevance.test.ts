import { describe, expect, it } from 'vitest';
import { tokenize } from '../../src/geocode/normalize.js';
import { scoreTokens, tokenSimilarity, type TokenList } from '../../src/geocode/relevance.js';

const list = (text: string): TokenList => {
  const tokens = tokenize(text);
  return { tokens, keys: tokens.map(() => '') };
};
const score = (q: string, e: string): number => scoreTokens(list(q), list(e)).relevance;

describe('tokenSimilarity', () => {
  it('ranks exact over prefix over typo, and keeps numbers exact', () => {
    expect(tokenSimilarity('gent', 'gent')).toBe(1);
    const prefix = tokenSimilarity('korenm', 'korenmarkt');
    const typo = tokenSimilarity('korenmarket', 'korenmarkt');
    expect(prefix).toBeGreaterThan(0.6);
    expect(prefix).toBeLessThan(1);
    expect(typo).toBeGreaterThan(0.6);
    expect(typo).toBeLessThan(1);
    expect(tokenSimilarity('12', '13')).toBe(0);
    expect(tokenSimilarity('10', '1000')).toBe(0.5);
    expect(tokenSimilarity('du', 'de')).toBe(0);
    expect(tokenSimilarity('bruksel', 'bruxelles', 'prksl', 'prksl')).toBe(0.6);
  });
});

describe('scoreTokens', () => {
  it('gives exactly 1 to the same tokens, in any order', () => {
    expect(score('Grand-Place 1, 1000 Bruxelles', 'Grand-Place 1, 1000 Bruxelles')).toBe(1);
    expect(score('1000 bruxelles grand place 1', 'Grand-Place 1, 1000 Bruxelles')).toBe(1);
  });

  it('stays in 0..1 and rewards asking for more of the entry', () => {
    const a = score('liege', '4000 Liège');
    const b = score('liege', 'Place Saint-Lambert 1, 4000 Liège');
    expect(a).toBeGreaterThan(b);
    expect(a).toBeLessThan(1);
    expect(b).toBeGreaterThan(0.8);
    expect(score('xyz', 'Korenmarkt 5, 9000 Gent')).toBe(0);
    expect(score('', 'Korenmarkt')).toBe(0);
  });

  it('reports how much of the query matched', () => {
    expect(scoreTokens(list('korenmarkt utopia'), list('Korenmarkt 5, 9000 Gent')).match).toBe(0.5);
  });
});
