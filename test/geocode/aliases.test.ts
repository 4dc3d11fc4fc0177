import { describe, expect, it } from 'vitest';
import { ALIAS_GROUPS, MAX_VARIANTS, aliasVariants } from '../../src/geocode/aliases.js';
import { tokenize } from '../../src/geocode/normalize.js';

const variants = (address: string): string[] => aliasVariants(tokenize(address)).map((v) => v.join(' '));

describe('aliasVariants', () => {
  it('combines street and municipality names, original first', () => {
    const v = variants('Grand-Place 1, 1000 Bruxelles');
    expect(v[0]).toBe('grand place 1 1000 bruxelles');
    expect(v).toContain('grote markt 1 1000 brussel');
    expect(v).toContain('grand place 1 1000 brussels');
    expect(new Set(v).size).toBe(v.length);
  });

  it('applies street aliases only with their postcode', () => {
    expect(variants('Grand-Place 1, 7000 Mons')).not.toContain('grote markt 1 7000 mons');
    expect(variants('Grand-Place 1, 7000 Mons')).toContain('grand place 1 7000 bergen');
  });

  it('leaves names without aliases alone and respects the variant cap', () => {
    expect(variants('Korenlei 2, 9000 Zottegem')).toEqual(['korenlei 2 9000 zottegem']);
    const many = aliasVariants(tokenize('Rue de la Loi 1, 1000 Bruxelles Ixelles Uccle Forest Gent Mons'));
    expect(many.length).toBeLessThanOrEqual(MAX_VARIANTS);
  });

  it('never lists a name twice across groups', () => {
    const names = ALIAS_GROUPS.flatMap((g) => g.names.map((n) => tokenize(n).join(' ')));
    expect(new Set(names).size).toBe(names.length);
  });
});
