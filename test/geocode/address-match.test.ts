import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FALLBACK_RELEVANCE, HOUSE_ANSWER_FACTOR, matchAddress, prepareParts, prepareQuery } from '../../src/geocode/address-match.js';
import { formatAddress, parseDisplayAddress, type AddressParts } from '../../src/geocode/address-parts.js';
import { ALIAS_GROUPS } from '../../src/geocode/aliases.js';
import { GAZETTEER } from '../../src/geocode/gazetteer-data.js';
import { createGazetteer } from '../../src/geocode/gazetteer.js';
import { tokenize } from '../../src/geocode/normalize.js';
import { rankCandidates } from '../../src/geocode/rank.js';

const g = createGazetteer(GAZETTEER);
const judge = (q: string, parts: AddressParts) => matchAddress(prepareQuery(q), prepareParts(parts));
const parts = (address: string): AddressParts => parseDisplayAddress(address)!;

describe('the addresses that used to land on unrelated streets', () => {
  it('Place Saint-Lambert 1, 4000 Liège: the Liège municipality centre, at the fallback relevance, nothing in Brussels', () => {
    const hits = g.search('Place Saint-Lambert 1, 4000 Liège', 5);
    expect(hits).toEqual([{ address: '4000 Liège', lat: 50.6455, lon: 5.5735, relevance: FALLBACK_RELEVANCE, kind: 'municipality' }]);
  });

  it('Kerkstraat 1, 9000 Gent: the Ghent municipality, never Burgstraat or Koestraat', () => {
    const hits = g.search('Kerkstraat 1, 9000 Gent', 5);
    expect(hits.map((h) => [h.address, h.kind])).toEqual([['9000 Gent', 'municipality']]);
  });

  it('Rue Neuve 1, 1000 Bruxelles: only the municipality, never another street of 1000 Bruxelles', () => {
    expect(g.search('Rue Neuve 1, 1000 Bruxelles', 5).map((h) => [h.address, h.kind])).toEqual([['1000 Bruxelles', 'municipality']]);
  });

  it('xyzzy: nothing', () => {
    expect(g.search('xyzzy', 5)).toEqual([]);
  });
});

describe('what the gazetteer found before and still finds', () => {
  it.each([
    ['Grand-Place 1, 1000 Bruxelles', 'Grand-Place 1, 1000 Bruxelles', 1],
    ['Grand-Place 1, Bruxelles', 'Grand-Place 1, 1000 Bruxelles', 0.988],
    // A street named without a number is answered as the street, never as one of its houses.
    ['Grote Markt Brussel', 'Grand-Place, 1000 Bruxelles', 0.971],
    ['Marche aux herbes', 'Rue du Marché aux Herbes, 1000 Bruxelles', 0.892],
    ['Grasmarkt 10 Brussel', 'Rue du Marché aux Herbes 10, 1000 Bruxelles', 0.983],
    ['Korenmarkt, Gent', 'Korenmarkt, 9000 Gent', 0.96],
    ['Veltstraat 20, Gent', 'Veldstraat 20, 9000 Gent', 0.817],
    ['Bd Anspach 30', 'Boulevard Anspach 30, 1000 Bruxelles', 0.893],
    ['Place St-Jean', 'Place Saint-Jean, 1000 Bruxelles', 0.902],
    // A number the gazetteer does not hold: the street, below the exact answer's relevance, never another house.
    ['Grand-Place 3, 1000 Bruxelles', 'Grand-Place, 1000 Bruxelles', 0.75],
    ['Rue Haute 100, 1000 Bruxelles', 'Rue Haute, 1000 Bruxelles', 0.75],
    ['Grand-Place 1, 1000 Bruxelles, Belgique', 'Grand-Place 1, 1000 Bruxelles', 1],
    ['liege', '4000 Liège', 0.933],
    ['Paris, France', 'Paris, France', 1],
  ])('%s → %s (%s)', (q, address, relevance) => {
    expect(g.search(q, 1)[0]).toMatchObject({ address, relevance });
  });
});

describe('matchAddress rules', () => {
  const rueNeuve = parts('Rue Neuve 1, 1000 Bruxelles');

  it('drops a result with another postcode, unless the number is its house number', () => {
    expect(judge('Rue Neuve 1, 4000 Liège', rueNeuve)).toBeUndefined();
    expect(judge('Rue Neuve 1, 1000', rueNeuve)).toBeDefined();
    expect(judge('Chaussée de Waterloo 1234', parts('Chaussée de Waterloo 1234, 1180 Uccle'))).toBeDefined();
    expect(judge('Chaussée de Waterloo 1234', parts('Chaussée de Waterloo 12, 1180 Uccle'))).toBeUndefined();
  });

  it('drops a result whose street does not hold every word of the query', () => {
    expect(judge('Rue Neuve', parts("Rue de l'Amigo 1, 1000 Bruxelles"))).toBeUndefined();
    expect(judge('Place Neuve', rueNeuve)).toBeUndefined();
    // One street word answers for one query word: the second "Namur" is the municipality, and it is not Brussels.
    expect(judge('Rue de Namur 10, Namur', parts('Rue de Namur 10, 1000 Bruxelles'))).toBeUndefined();
    expect(judge('Rue de Namur 10, Bruxelles', parts('Rue de Namur 10, 1000 Bruxelles'))).toBeDefined();
  });

  it('never matches by phonetic key alone, nor compounds that differ before their street-type ending', () => {
    expect(judge('Grand Plas', parts('Grand-Place 1, 1000 Bruxelles'))).toBeUndefined();
    expect(judge('Kerkstraat 1', parts('Burgstraat 10, 9000 Gent'))).toBeUndefined();
    expect(judge('Kerkstraat 1', parts('Koestraat 10, 9000 Gent'))).toBeUndefined();
    expect(judge('Korenmarket 1', parts('Korenmarkt 1, 9000 Gent'))).toBeDefined();
  });

  it('matches a known municipality name only exactly: Genk is not Gent, a typo of an unknown word may be', () => {
    expect(judge('Korenmarkt 1, Genk', parts('Korenmarkt 1, 9000 Gent'))).toBeUndefined();
    expect(judge('Korenmarkt 1, Gentt', parts('Korenmarkt 1, 9000 Gent'))).toBeDefined();
  });

  it('accepts fillers, box numbers and country names, but not unexplained words', () => {
    // Box numbers are left out of the query, in any language and form, with or without a postcode.
    for (const box of ['bte 3', 'bus 3', 'boîte 3', 'b 3', 'b3', 'bte3', 'Bus A']) {
      expect(judge(`Rue Neuve 1 ${box}, 1000 Bruxelles, Belgium`, rueNeuve)?.relevance, box).toBe(1);
      expect(judge(`Rue Neuve 1 ${box} Bruxelles`, rueNeuve)?.relevance, box).toBe(judge('Rue Neuve 1 Bruxelles', rueNeuve)?.relevance);
    }
    expect(judge('Rue Neuve 1b3, 1000 Bruxelles', rueNeuve)?.relevance).toBe(1);
    // A box without a house number asks for the street; after an article "bus" is a word of a name.
    expect(judge('Rue Neuve bus 3, 1000 Bruxelles', rueNeuve)).toMatchObject({ kind: 'street', address: 'Rue Neuve, 1000 Bruxelles' });
    expect(judge('Rue du Bus 3, 1000 Bruxelles', parts('Rue du Bus 3, 1000 Bruxelles'))).toMatchObject({ kind: 'address', relevance: 1 });
    expect(judge('Rue Neuve 1, 1000 Bruxelles, Atlantis', rueNeuve)).toBeUndefined();
    expect(judge('de la', rueNeuve)).toBeUndefined();
  });

  it('answers another house number only as the street, below the exact answer', () => {
    const exact = judge('Rue Neuve 1, 1000 Bruxelles', rueNeuve)!;
    const other = judge('Rue Neuve 40, 1000 Bruxelles', rueNeuve)!;
    expect(exact).toMatchObject({ kind: 'address', address: 'Rue Neuve 1, 1000 Bruxelles', relevance: 1 });
    expect(other).toMatchObject({ kind: 'street', address: 'Rue Neuve, 1000 Bruxelles', relevance: HOUSE_ANSWER_FACTOR.street });
    // Letters and boxes in any order: 1B is not 1.
    expect(judge('Rue Neuve 1B bus 2, 1000 Bruxelles', rueNeuve)).toMatchObject({ kind: 'street', relevance: HOUSE_ANSWER_FACTOR.street });
    // A registered neighbour (the address register's answer for a number it lacks) keeps its own number.
    const neighbour = matchAddress(prepareQuery('Rue Neuve 3, 1000 Bruxelles'), prepareParts(rueNeuve), true)!;
    expect(neighbour).toMatchObject({ kind: 'address', address: 'Rue Neuve 1, 1000 Bruxelles', relevance: HOUSE_ANSWER_FACTOR.neighbour });
    // A street-level result answering a numbered query gets the street factor too.
    expect(judge('Rue Neuve 40, 1000 Bruxelles', parts('Rue Neuve, 1000 Bruxelles'))?.relevance).toBe(HOUSE_ANSWER_FACTOR.street);
    expect(judge('Rue Neuve, 1000 Bruxelles', parts('Rue Neuve, 1000 Bruxelles'))?.relevance).toBe(1);
    // A number in the street's name is not a house number.
    expect(judge('Rue du 11 Novembre, 1050 Ixelles', parts('Rue du 11 Novembre 5, 1050 Ixelles'))).toMatchObject({ kind: 'street', relevance: 1 });
  });

  it('falls back to a municipality named by the last words, after the unknown street', () => {
    const liege = parts('4000 Liège');
    const brussels = parts('1000 Bruxelles');
    expect(judge('Place Saint-Lambert 1, 4000 Liège', liege)).toEqual({ relevance: 0.65, kind: 'municipality', address: '4000 Liège' });
    expect(judge('Place Saint-Lambert 1 Liège', liege)?.relevance).toBe(0.65);
    expect(judge('Rue de Liège 5, Bruxelles', brussels)?.relevance).toBe(0.65);
    expect(judge('Rue de Liège 5, Bruxelles', liege)).toBeUndefined();
    expect(judge('Bruxelles, Rue de Liège', liege)).toBeUndefined();
    expect(judge('Place Saint-Lambert 1, Lieje', liege)!.relevance).toBeLessThan(0.5);
    // A word of a longer municipality name names it only in part.
    expect(judge('Place St-Jean', parts('1080 Molenbeek-Saint-Jean'))!.relevance).toBeLessThan(0.5);
    expect(judge('xyzzy', liege)).toBeUndefined();
  });

  it('scores a partly named street or municipality lower than a fully named one', () => {
    const full = judge('Rue Neuve', rueNeuve)!.relevance;
    expect(judge('rue', rueNeuve)!.relevance).toBeLessThan(full * 0.6);
    expect(judge('kor', parts('8500 Kortrijk'))!.relevance).toBeLessThan(judge('kortrijk', parts('8500 Kortrijk'))!.relevance * 0.7);
  });

  it('displays the language of a multilingual name the query used', () => {
    const bilingual: AddressParts = {
      kind: 'address', street: ['Rue Neuve', 'Nieuwstraat'], houseNumber: '1', postcode: '1000',
      municipality: ['Bruxelles', 'Brussel'], countryCode: 'be',
    };
    expect(judge('Nieuwstraat 1, Brussel', bilingual)?.address).toBe('Nieuwstraat 1, 1000 Brussel');
    expect(judge('Nieuwstraat 1', bilingual)?.address).toBe('Nieuwstraat 1, 1000 Brussel');
    expect(judge('rue neuve 1', bilingual)?.address).toBe('Rue Neuve 1, 1000 Bruxelles');
  });

  it('reads back every gazetteer address from its display form', () => {
    for (const e of GAZETTEER) {
      const p = parseDisplayAddress(e.address);
      expect(p?.kind === 'place' ? 'place' : p?.kind).toBe(e.kind);
      expect(formatAddress(p!)).toBe(e.address);
    }
  });
});

describe('no result contradicts the postcode or municipality of the query (properties)', () => {
  const municipalities = GAZETTEER.filter((e) => e.kind === 'municipality').map((e) => parseDisplayAddress(e.address)!);
  const postcodes = municipalities.map((m) => m.postcode!);
  const names = [...new Set([...municipalities.map((m) => m.municipality[0]), ...ALIAS_GROUPS.filter((a) => !a.postcodes).flatMap((a) => a.names)])];
  const streets = [
    ...new Set(GAZETTEER.filter((e) => e.kind === 'address').map((e) => parseDisplayAddress(e.address)!.street![0])),
    'Kerkstraat', 'Rue Neuve', 'Place Saint-Lambert', 'Stationsstraat', 'Rue de la Station', 'Xyzzy', 'Rue de Namur',
  ];
  const fold = (s: string) => tokenize(s).join(' ');
  /** True when two municipality names denote the same municipality (equal folded, or aliases of each other). */
  const sameTown = (a: string, b: string) =>
    fold(a) === fold(b) || ALIAS_GROUPS.some((g) => g.names.some((n) => fold(n) === fold(a)) && g.names.some((n) => fold(n) === fold(b)));
  /** Postcode and municipality of a display address ("…, 1000 Bruxelles", "1000 Bruxelles", "Lille, France"). */
  const areaOf = (address: string) => {
    const m = /(?:^|, )(\d{4}) ([^,]+)$/.exec(address);
    return m ? { postcode: m[1], town: m[2] } : { postcode: undefined, town: address.split(', ')[0] };
  };

  const query = fc.record({
    street: fc.constantFrom(...streets),
    number: fc.option(fc.integer({ min: 1, max: 200 }), { nil: undefined }),
    postcode: fc.option(fc.constantFrom(...postcodes), { nil: undefined }),
    town: fc.option(fc.constantFrom(...names), { nil: undefined }),
    comma: fc.boolean(),
  });
  const text = (q: { street: string; number?: number | undefined; postcode?: string | undefined; town?: string | undefined; comma: boolean }) =>
    [q.number === undefined ? q.street : `${q.street} ${q.number}`, [q.postcode, q.town].filter(Boolean).join(' ')]
      .filter((s) => s !== '')
      .join(q.comma ? ', ' : ' ');

  it('holds for the embedded gazetteer', () => {
    fc.assert(
      fc.property(query, (q) => {
        for (const hit of g.search(text(q), 5)) {
          const area = areaOf(hit.address);
          // Never another house: a house-level hit carries the asked number, and only a numbered query gets one.
          if (hit.kind === 'address') expect(hit.address, `${text(q)} → ${hit.address}`).toMatch(new RegExp(` ${q.number ?? 'none'}, `));
          if (q.postcode !== undefined) expect(area.postcode).toBe(q.postcode);
          if (q.town !== undefined) expect(sameTown(area.town, q.town), `${text(q)} → ${hit.address}`).toBe(true);
        }
      }),
      { numRuns: 1500, seed: 9090 },
    );
  });

  it('holds for what an HTTP geocoder answers, whatever it answers', () => {
    const candidate = fc.record({
      street: fc.option(fc.constantFrom(...streets), { nil: undefined }),
      number: fc.option(fc.integer({ min: 1, max: 200 }).map(String), { nil: undefined }),
      postcode: fc.option(fc.constantFrom(...postcodes), { nil: undefined }),
      town: fc.constantFrom(...names),
    }).map(({ street, number, postcode, town }) => ({
      parts: {
        kind: street === undefined ? 'municipality' : number === undefined ? 'street' : 'address',
        ...(street !== undefined ? { street: [street] } : {}),
        ...(street !== undefined && number !== undefined ? { houseNumber: number } : {}),
        ...(postcode !== undefined ? { postcode } : {}),
        municipality: [town],
        countryCode: 'be',
      } satisfies AddressParts,
      lat: 50.5,
      lon: 4.5,
    }));
    fc.assert(
      fc.property(query, fc.array(candidate, { maxLength: 10 }), (q, answer) => {
        for (const hit of rankCandidates(text(q), answer, 5)) {
          const area = areaOf(hit.address);
          if (q.postcode !== undefined) expect(area.postcode).toBe(q.postcode);
          if (q.town !== undefined) expect(sameTown(area.town, q.town), `${text(q)} → ${hit.address}`).toBe(true);
        }
      }),
      { numRuns: 1500, seed: 9091 },
    );
  });
});
