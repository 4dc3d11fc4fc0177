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
export const STREET_TYPES = set(`
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
export const PARTICLES = set(`
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
export const NOISE = set('bte boite bus box');

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
 * Words of every municipality name the service knows: the gazetteer's municipalities and their other-language
 * names. Particles and street-type words are left out ("la" of La Louvière, "markt" of nothing yet), so only words
 * that name a town remain.
 */
export const MUNICIPALITY_WORDS: ReadonlySet<string> = new Set(
  [
    ...GAZETTEER.filter((e) => e.kind === 'municipality').map((e) => e.address.replace(/^\d+\s+/, '')),
    ...ALIAS_GROUPS.filter((g) => g.postcodes === undefined).flatMap((g) => g.names),
  ]
    .flatMap(tokenize)
    .filter((w) => w.length >= 3 && isDistinctive(w) && !/[0-9]/.test(w)),
);
