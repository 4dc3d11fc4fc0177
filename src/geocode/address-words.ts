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

/** Words that qualify an address without naming a place: box numbers ("bte 3", "bus 3"). */
const NOISE = set('bte boite bus box');

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

/** True for a word that identifies nothing by itself (particles, box words); it never needs a match. */
export function isFiller(word: string): boolean {
  return PARTICLES.has(word) || NOISE.has(word);
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
