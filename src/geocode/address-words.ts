/**
 * Word classes of Belgian addresses, folded as normalize.ts folds them. They let the address check (address-match.ts)
 * tell the words that identify a street ("neuve", "marche", "herbes") from the words every street has ("rue",
 * "straat", "de"), read common abbreviations, and recognise the names of known municipalities, which must match a
 * result's municipality exactly rather than by a small typo ("Genk" is not "Gent").
 */
import { ALIAS_GROUPS } from './aliases.js';
import { GAZETTEER } from './gazetteer-data.js';
import { tokenize } from './normalize.js';

const set = (words: string): ReadonlySet<string> => new Set(words.split(/\s+/).filter((w) => w !== ''));

/**
 * Street-type words (French, Dutch, German, English). A query must still name the type it means ("Place Neuve" is
 * not "Rue Neuve"), but a street is identified by its other words.
 */
const STREET_TYPES = set(`
  rue ruelle avenue boulevard chaussee place placette square quai impasse allee chemin route passage galerie parvis
  carrefour rond point sentier dreve clos cour cite venelle rampe montee esplanade promenade plaine berge port porte
  straat straatje steenweg laan lei plein markt kaai kade dreef weg wegel pad singel vest plaats hof erf gang dijk
  strasse gasse platz
  street road lane
`);

/**
 * Articles, prepositions and the "Saint" forms that link the words of a name. They identify nothing, so a query may
 * add or leave them out ("Rue Marché aux Herbes", "Place St-Jean") without contradicting a result.
 */
const PARTICLES = set(`
  a au aux d de del della des du en et l la le les sur sous lez
  aan bij het in of op t te ten ter van der den voor
  am an im zum zur von
  the
  saint sainte st ste sint sankt
`);

/**
 * Street-type endings of Dutch and German compound names ("Kerkstraat", "Korenmarkt"). Two compounds with the same
 * ending are told apart by what comes before it, so a typo allowance is measured on that part alone: "Kerkstraat"
 * and "Burgstraat" differ in three of their four distinctive letters, not in three of ten.
 */
export const STREET_SUFFIXES: readonly string[] = [
  'straatje', 'straat', 'steenweg', 'laan', 'lei', 'plein', 'markt', 'kaai', 'kade', 'dreef', 'weg', 'wegel', 'pad',
  'singel', 'vest', 'plaats', 'dijk', 'hof', 'helling', 'strasse', 'gasse', 'platz',
];

/** Words that introduce a box number in French, Dutch and German addresses ("bte 2", "boîte 2", "bus 2", "b 2"). */
const BOX_WORDS = set('bte bt boite bus box briefkasten b');
/** A box word and its number written as one word: "b2", "bte2", "bus12a". */
const GLUED_BOX = /^(?:bte|bt|boite|bus|box|b)[0-9]+[a-z]?$/;
/** A house number and its box written as one word: "7b2" is number 7, box 2. */
const NUMBER_AND_BOX = /^([0-9]+)(?:bte|bt|bus|box|b)[0-9]+$/;
/** What may follow a box word as its number: digits with a letter, or one letter ("bus A"). */
const BOX_NUMBER = /^(?:[0-9]+[a-z]?|[a-z])$/;

/**
 * The query's words without its box numbers, each kept word with its index in `tokens`. A box is part of a house,
 * never another place: "7 bus 2", "7B bte 2", "7 b2", "7b2" all ask for house 7 (7B), whatever else the query holds.
 * A lone "b" is left alone (it may be a house number's letter); the other box words go even without a number; a box
 * word after an article or a preposition is a word of a name.
 */
export function withoutBoxNumbers(tokens: readonly string[]): { token: string; index: number }[] {
  const kept: { token: string; index: number }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (GLUED_BOX.test(t)) continue;
    const glued = NUMBER_AND_BOX.exec(t);
    if (glued !== null) {
      kept.push({ token: glued[1], index: i });
      continue;
    }
    // After an article or preposition the word is part of a name ("Rue du Bus"), not a box.
    if (BOX_WORDS.has(t) && !(i > 0 && PARTICLES.has(tokens[i - 1]))) {
      const next = tokens[i + 1];
      if (next !== undefined && BOX_NUMBER.test(next)) {
        i++;
        continue;
      }
      if (t !== 'b') continue;
    }
    kept.push({ token: t, index: i });
  }
  return kept;
}

/** Country names a query may end with, by ISO 3166-1 alpha-2 code (lower case), in the languages users type. */
export const COUNTRY_NAMES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  be: ['belgique', 'belgie', 'belgium', 'belgien'],
  fr: ['france', 'frankrijk', 'frankreich'],
  nl: ['nederland', 'pays bas', 'netherlands', 'niederlande'],
  de: ['deutschland', 'allemagne', 'duitsland', 'germany'],
  lu: ['luxembourg', 'luxemburg'],
  gb: ['united kingdom', 'royaume uni', 'verenigd koninkrijk', 'uk'],
});

/** Abbreviations of street-type words and of the "Saint" forms, with the words they stand for. */
export const ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  st: ['saint', 'sint', 'sankt'],
  ste: ['sainte'],
  av: ['avenue'],
  ave: ['avenue'],
  bd: ['boulevard'],
  bld: ['boulevard'],
  bvd: ['boulevard'],
  ch: ['chaussee', 'chemin'],
  chee: ['chaussee'],
  pl: ['place', 'plein'],
  sq: ['square'],
  str: ['straat', 'strasse'],
  stwg: ['steenweg'],
});

/** True for a word that identifies nothing by itself (articles, prepositions, "Saint"); it never needs a match. Box numbers never reach the check (`withoutBoxNumbers`). */
export function isFiller(word: string): boolean {
  return PARTICLES.has(word);
}

/** True for a word that distinguishes one street from another (not a street type, particle or number). */
export function isDistinctive(word: string): boolean {
  return !STREET_TYPES.has(word) && !PARTICLES.has(word) && !/^[0-9]+$/.test(word);
}

/**
 * Every municipality name the service knows, folded (`sint truiden`): the gazetteer's municipalities and their
 * other-language or short names (aliases.ts). A query that holds one of these names whole names that municipality,
 * and a result in another municipality contradicts it, even one whose longer name contains it ("Louvain" is Leuven,
 * not Ottignies-Louvain-la-Neuve).
 */
const MUNICIPALITY_NAMES: ReadonlySet<string> = new Set(
  [
    ...GAZETTEER.filter((e) => e.kind === 'municipality').map((e) => e.address.replace(/^\d+\s+/, '')),
    ...ALIAS_GROUPS.filter((g) => g.postcodes === undefined).flatMap((g) => g.names),
  ]
    .map((name) => tokenize(name).join(' '))
    .filter((name) => name !== ''),
);

/** Most words in one municipality name (bounds the run search). */
const LONGEST_NAME = Math.max(...[...MUNICIPALITY_NAMES].map((n) => n.split(' ').length));

/**
 * For each token, the municipality name it is part of when the tokens hold one whole (longest name first, left to
 * right, names not overlapping); undefined for the other tokens.
 */
export function municipalityRuns(tokens: readonly string[]): (string | undefined)[] {
  const out = new Array<string | undefined>(tokens.length).fill(undefined);
  for (let i = 0; i < tokens.length; ) {
    let found = 0;
    for (let len = Math.min(LONGEST_NAME, tokens.length - i); len >= 1 && found === 0; len--) {
      if (MUNICIPALITY_NAMES.has(tokens.slice(i, i + len).join(' '))) found = len;
    }
    if (found === 0) {
      i++;
      continue;
    }
    const name = tokens.slice(i, i + found).join(' ');
    for (let k = i; k < i + found; k++) out[k] = name;
    i += found;
  }
  return out;
}
