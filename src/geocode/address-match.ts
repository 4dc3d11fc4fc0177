/**
 * The address check every geocoder's results go through (docs/geocoding.md): a result that
 * contradicts the query is dropped, and a result that agrees gets its relevance from this module, whichever geocoder
 * found it. Words are compared folded (normalize.ts), fuzzily (relevance.ts: exact, prefix, small typo; abbreviations
 * from address-words.ts) and in every language the aliases know, but never by phonetic key alone.
 *
 * A result agrees with a query when:
 *  1. every postcode of the query (a 4-digit number 1000–9999) is the result's postcode (or its house number);
 *  2. street level (`address`, `street`): every word of the query is a word of the result's street (each street word
 *     answering for one query word), of its municipality or locality, a country name, or a filler word
 *     (articles, "Saint", box words); numbers that are not postcodes may be house numbers the geocoder does not hold;
 *  3. area level (`municipality`, `place`): the query names the municipality (or its postcode); words left over are a
 *     street the geocoder does not hold, accepted only when the municipality is named by the query's last words
 *     (after every left-over word and house number, and in a comma-separated part of their own when the query has
 *     commas, as in "Street 1, 4000 Liège"): the municipality-level fallback;
 *  4. words that are the whole name of a known municipality ("Genk", "Louvain") name that municipality: they match a
 *     result's municipality only when it has that very name (in some language), never by typo and never as part of
 *     a longer name ("Louvain" is Leuven, not Ottignies-Louvain-la-Neuve); in a street they match only exactly.
 */
import { wholeNameAliases } from './aliases.js';
import { formatAddress, isStreetLevel, type AddressParts, type ResultKind } from './address-parts.js';
import { ABBREVIATIONS, COUNTRY_NAMES, STREET_SUFFIXES, isDistinctive, isFiller, municipalityRuns, withoutBoxNumbers } from './address-words.js';
import { tokenize } from './normalize.js';
import { scoreTokens, tokenSimilarity, type RelevanceScore, type TokenList } from './relevance.js';

/** Relevance of a municipality-level fallback whose municipality the query names exactly (see `matchAddress`). */
export const FALLBACK_RELEVANCE = 0.65;

/** Share of a street-level result's relevance that does not depend on how completely the query names its street. */
const STREET_BASE = 0.5;

/** A query prepared once: folded tokens, the comma-separated part each came from, the municipality names it holds. */
export interface QueryText {
  readonly tokens: readonly string[];
  /** For each token, the index of the comma-separated part of the query it came from. */
  readonly segment: readonly number[];
  /** For each token, the whole municipality name it is part of (address-words.ts), if any. */
  readonly runs: readonly (string | undefined)[];
}

/** A result judged consistent with the query. */
export interface AddressMatch {
  /** 0..1, three decimals. */
  readonly relevance: number;
  readonly kind: ResultKind;
  /** One-language display address. */
  readonly address: string;
}

/**
 * One name in one language, or an other-language alias of it (aliases.ts). `alt` indexes the displayed alternative
 * it stands for (an alias displays its original), -1 for a name never displayed.
 */
interface Variant {
  readonly tokens: readonly string[];
  readonly alt: number;
  readonly alias: boolean;
}

/** A result's parts with their token lists and aliases computed once (the gazetteer prepares each entry once). */
export interface PreparedParts {
  readonly parts: AddressParts;
  readonly streets: readonly Variant[];
  /** Municipality names (`alt` ≥ 0) and other localities (`alt` -1). */
  readonly towns: readonly Variant[];
  readonly houseNumber: string | undefined;
  readonly postcode: string | undefined;
  readonly countryWords: ReadonlySet<string>;
}

const POSTCODE = /^[1-9][0-9]{3}$/;
/** A house number as a folded query word: digits and up to two letters ("16", "16a", "1200"). */
const HOUSE_NUMBER = /^[0-9]{1,5}[a-z]{0,2}$/;

/**
 * How a street-level result answers the house number the query asked, and the factor its relevance is multiplied by
 * (docs/geocoding.md, "Relevance"): `asked` the number itself (or the query asked no number), `neighbour` a
 * registered number within 25 m of the asked one's place, under its own number (address register only), `street` the
 * street without the asked number. A street-level answer to a numbered query therefore ranks below the same query's
 * exact answer and below 0.75 at best; municipality-level answers stay at most `FALLBACK_RELEVANCE`.
 */
export const HOUSE_ANSWER_FACTOR = { asked: 1, neighbour: 0.9, street: 0.75 } as const;
export type HouseAnswer = keyof typeof HOUSE_ANSWER_FACTOR;
/** A number, or a house number with a letter ("10a"): never a word that must be explained. */
const NUMBER_LIKE = /^[0-9]+[a-z]{0,2}$/;
const NO_KEYS = (tokens: readonly string[]): TokenList => ({ tokens, keys: tokens.map(() => '') });
const round3 = (x: number): number => Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;

/** Folds the query, leaves its box numbers out (a box is part of a house) and remembers each token's comma-separated part. */
export function prepareQuery(text: string): QueryText {
  const all: string[] = [];
  const parts: number[] = [];
  text.split(',').forEach((part, s) => {
    for (const t of tokenize(part)) {
      all.push(t);
      parts.push(s);
    }
  });
  const kept = withoutBoxNumbers(all);
  const tokens = kept.map((k) => k.token);
  return { tokens, segment: kept.map((k) => parts[k.index]), runs: municipalityRuns(tokens) };
}

/**
 * The house number a query asks of a street: its first number-like word (digits with up to two letters) that is
 * neither a word of the street's names (Rue du 11 Novembre, Rue du 1er Mai) nor the street's postcode, so a
 * four-digit house number (Chaussée d'Alsemberg 1200) is one; undefined when the query names no house.
 */
export function askedHouseNumber(tokens: readonly string[], streetWords: ReadonlySet<string>, postcode: string | undefined): string | undefined {
  return tokens.find((t) => HOUSE_NUMBER.test(t) && !streetWords.has(t) && t !== postcode);
}

/** The shared street-type ending of two compound words, when both have one and something before it. */
function sharedSuffix(q: string, e: string): string | undefined {
  return STREET_SUFFIXES.find((x) => q.endsWith(x) && e.endsWith(x) && q.length > x.length && e.length > x.length);
}

/**
 * Similarity of a query word to a result word: exact, prefix or small typo (relevance.ts), or an abbreviation.
 * Two compounds with the same street-type ending are compared on what precedes it (address-words.ts).
 */
function wordSimilarity(q: string, e: string): number {
  if (ABBREVIATIONS[q]?.includes(e)) return 0.9;
  const s = tokenSimilarity(q, e);
  if (s === 0 || s === 1) return s;
  const suffix = sharedSuffix(q, e);
  if (suffix === undefined) return s;
  const stemSimilarity = tokenSimilarity(q.slice(0, -suffix.length), e.slice(0, -suffix.length));
  return stemSimilarity === 0 ? 0 : s;
}

/** Computes the token lists and aliases of `parts`. */
export function prepareParts(parts: AddressParts): PreparedParts {
  const postcode = parts.postcode?.trim() || undefined;
  const context = postcode === undefined ? [] : [postcode];
  const variantsOf = (names: readonly string[], displayed: boolean): Variant[] =>
    names.flatMap((name, i) => {
      const tokens = tokenize(name);
      const alt = displayed ? i : -1;
      if (tokens.length === 0) return [];
      return [{ tokens, alt, alias: false }, ...wholeNameAliases(tokens, context).map((a) => ({ tokens: a, alt, alias: true }))];
    });
  const countryWords = new Set([
    ...(parts.countryCode ? (COUNTRY_NAMES[parts.countryCode] ?? []) : []),
    ...(parts.country ? [parts.country] : []),
  ].flatMap(tokenize));
  return {
    parts,
    streets: variantsOf(parts.street ?? [], true),
    towns: [...variantsOf(parts.municipality, true), ...variantsOf(parts.localities ?? [], false)],
    houseNumber: parts.houseNumber ? tokenize(parts.houseNumber).join('') : undefined,
    postcode,
    countryWords,
  };
}

/**
 * How well query word `i` names one of the result's towns: a word of a known municipality name only when that whole
 * name is one of the town's (rule 4), any other word fuzzily.
 */
function townSimilarity(query: QueryText, i: number, towns: readonly Variant[]): { sim: number; alt: number } {
  const word = query.tokens[i];
  const run = query.runs[i];
  let best = { sim: 0, alt: -1, rank: 0 };
  for (const v of towns) {
    // On equal similarity, a displayed original name wins over an alias, and an alias over a locality.
    const rank = v.alt < 0 ? 0 : v.alias ? 1 : 2;
    const sims = run !== undefined ? [v.tokens.join(' ') === run ? 1 : 0] : v.tokens.map((t) => wordSimilarity(word, t));
    for (const s of sims) {
      if (s > best.sim || (s === best.sim && s > 0 && rank > best.rank)) best = { sim: s, alt: v.alt, rank };
    }
  }
  return { sim: best.sim, alt: best.alt };
}

/**
 * One-to-one alignment of query words to street words, best pairs first. A filler word, and the name of a known
 * municipality (rule 4), align only exactly.
 */
function alignStreet(query: QueryText, street: readonly string[]): number[] {
  const words = query.tokens;
  const pairs: [number, number, number][] = [];
  for (let i = 0; i < words.length; i++) {
    const exactOnly = isFiller(words[i]) || query.runs[i] !== undefined;
    for (let j = 0; j < street.length; j++) {
      const s = exactOnly ? (words[i] === street[j] ? 1 : 0) : wordSimilarity(words[i], street[j]);
      if (s > 0) pairs.push([s, i, j]);
    }
  }
  pairs.sort((a, b) => b[0] - a[0] || a[1] - b[1] || a[2] - b[2]);
  const out = new Array<number>(words.length).fill(0);
  const usedStreet = new Set<number>();
  for (const [s, i, j] of pairs) {
    if (out[i] > 0 || usedStreet.has(j)) continue;
    out[i] = s;
    usedStreet.add(j);
  }
  return out;
}

/** Rule 1: every postcode-like number of the query is the result's postcode or house number. */
function postcodesAgree(query: QueryText, p: PreparedParts): boolean {
  return query.tokens.every((t) => !POSTCODE.test(t) || t === p.postcode || t === p.houseNumber);
}

/** Share of a name's distinctive words the query names (best similarity each); 1 for a name without any. */
function completeness(query: readonly string[], name: readonly string[]): number {
  const distinctive = name.filter(isDistinctive);
  if (distinctive.length === 0) return 1;
  let sum = 0;
  for (const d of distinctive) sum += Math.max(0, ...query.map((q) => (isFiller(q) ? 0 : wordSimilarity(q, d))));
  return sum / distinctive.length;
}

/** The best text score of the query against the result with the given street, over each municipality variant. */
function bestText(query: QueryText, p: PreparedParts, street: readonly string[]): RelevanceScore {
  // A country the query names and the result lies in counts as found; the display form leaves the country out.
  const country = query.tokens.filter((t) => p.countryWords.has(t));
  const fixed = [...(p.houseNumber ? [p.houseNumber] : []), ...(p.postcode ? [p.postcode] : []), ...country];
  const q = NO_KEYS(query.tokens);
  // A variant replaces another only when it matches more of the query (then scores higher), so a name the query did
  // not use cannot change the score through its different number of words.
  let best: RelevanceScore | undefined;
  for (const town of p.towns.filter((v) => v.alt >= 0)) {
    const score = scoreTokens(q, NO_KEYS([...street, ...fixed, ...town.tokens]), wordSimilarity);
    if (!best || score.match > best.match || (score.match === best.match && score.relevance > best.relevance)) best = score;
  }
  return best ?? scoreTokens(q, NO_KEYS([...street, ...fixed]), wordSimilarity);
}

/** Rule 2, for one street variant: the relevance and displayed names, or undefined when a query word is unexplained. */
function matchStreet(query: QueryText, p: PreparedParts, street: Variant): { relevance: number; street: number; town: number } | undefined {
  const words = query.tokens;
  const aligned = alignStreet(query, street.tokens);
  let anchored = false;
  let town = -1;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const filler = isFiller(w);
    if (aligned[i] > 0) {
      anchored ||= !filler;
      continue;
    }
    if (NUMBER_LIKE.test(w)) {
      anchored ||= w === p.postcode || w === p.houseNumber;
      continue;
    }
    const t = townSimilarity(query, i, p.towns);
    if (t.sim > 0) {
      anchored ||= !filler;
      if (town === -1 && !filler) town = t.alt;
    } else if (!filler && !p.countryWords.has(w)) {
      return undefined;
    }
  }
  if (!anchored) return undefined;
  const score = bestText(query, p, street.tokens);
  const factor = STREET_BASE + (1 - STREET_BASE) * completeness(words, street.tokens);
  return { relevance: round3(score.relevance * factor), street: street.alt, town };
}

/** How completely `words` name the area: 1 when they hold its postcode, else the completeness of its best name. */
function areaNamed(words: readonly string[], p: PreparedParts): number {
  if (p.postcode !== undefined && words.includes(p.postcode)) return 1;
  return Math.max(0, ...p.towns.map((v) => completeness(words, v.tokens)));
}

/** Rule 3: a municipality or place named by the query, directly or as the fallback for a street it does not hold. */
function matchArea(query: QueryText, p: PreparedParts): { relevance: number; town: number } | undefined {
  const words = query.tokens;
  // Per token: its similarity to the area's names or postcode (> 0: it names the area), 0 for a filler or country
  // word or another number, -1 for a word the area does not explain (a street the geocoder does not hold).
  const role = words.map((w, i): { sim: number; alt: number } => {
    if (NUMBER_LIKE.test(w)) return { sim: w === p.postcode ? 1 : 0, alt: -1 };
    if (isFiller(w) || p.countryWords.has(w)) return { sim: 0, alt: -1 };
    const t = townSimilarity(query, i, p.towns);
    return t.sim > 0 ? t : { sim: -1, alt: -1 };
  });
  const named = role.flatMap((r, i) => (r.sim > 0 ? [i] : []));
  if (named.length === 0) return undefined;
  if (role.every((r) => r.sim >= 0)) {
    const displayTown = Math.max(0, role.find((r) => r.sim > 0 && r.alt >= 0)?.alt ?? 0);
    const factor = STREET_BASE + (1 - STREET_BASE) * areaNamed(words, p);
    return { relevance: round3(bestText(query, p, []).relevance * factor), town: displayTown };
  }
  // The fallback: the area is named by the query's last words (the tail after its last unexplained word or number),
  // which begin a comma-separated part of their own when the query has commas. Words naming the area earlier belong
  // to the street ("Rue de Dinant 20, Dinant").
  let start = words.length;
  while (start > 0 && role[start - 1].sim >= 0 && !(role[start - 1].sim === 0 && NUMBER_LIKE.test(words[start - 1]))) start--;
  const tail = named.filter((i) => i >= start);
  if (tail.length === 0 || start === 0) return undefined;
  if (new Set(query.segment).size > 1 && query.segment[start - 1] === query.segment[start]) return undefined;
  const mean = tail.reduce((sum, i) => sum + role[i].sim, 0) / tail.length;
  const factor = STREET_BASE + (1 - STREET_BASE) * areaNamed(words.slice(start), p);
  return { relevance: round3(FALLBACK_RELEVANCE * mean * factor), town: Math.max(0, role[tail[0]].alt) };
}

/**
 * The street-level result as it may answer the query's house number: an `address` result of another number (or of a
 * number the query did not ask) is only its street, judged with the asked number as its house number (so a four-digit
 * house number is not taken for another postcode) and displayed without one; the register's registered neighbour
 * (`neighbour`) keeps its own number.
 */
function settleHouseNumber(query: QueryText, p: PreparedParts, neighbour: boolean): { p: PreparedParts; answer: HouseAnswer } {
  const streetWords = new Set(p.streets.flatMap((v) => v.tokens));
  const asked = askedHouseNumber(query.tokens, streetWords, p.postcode);
  if (asked === undefined) {
    return p.parts.kind === 'street' ? { p, answer: 'asked' } : { p: streetOf(p, undefined), answer: 'asked' };
  }
  if (asked === p.houseNumber) return { p, answer: 'asked' };
  // A four-digit number the result does not hold is a house number only beside the result's own postcode; alone it
  // may be another postcode, which the postcode rule then judges.
  const house = !POSTCODE.test(asked) || query.tokens.includes(p.postcode ?? '') ? asked : undefined;
  // The neighbour is displayed under its own number and judged, as the street would be, with the asked one.
  if (neighbour) return { p: house === undefined ? p : { ...p, houseNumber: house }, answer: 'neighbour' };
  return { p: streetOf(p, house), answer: 'street' };
}

/** The street of a street-level result, judged with `judgedNumber` as its house number and displayed without one. */
function streetOf(p: PreparedParts, judgedNumber: string | undefined): PreparedParts {
  return { ...p, parts: { ...p.parts, kind: 'street', houseNumber: undefined }, houseNumber: judgedNumber };
}

/**
 * Judges one result against the query: undefined when it contradicts the query (module comment), otherwise its
 * relevance, kind and display address.
 *
 * Relevance: `0.8 × match + 0.2 × coverage` (relevance.ts) times `0.5 + 0.5 × completeness`, where completeness is
 * how fully the query names the result's distinctive street words (street level) or municipality name (area level;
 * 1 when the query holds the postcode), times `HOUSE_ANSWER_FACTOR` of how a street-level result answers the asked
 * house number: a result never answers as another house, only as its street (`settleHouseNumber`). The fallback:
 * `FALLBACK_RELEVANCE` times the mean similarity of the words naming the municipality times the same
 * `0.5 + 0.5 × completeness`, so at most `FALLBACK_RELEVANCE`.
 *
 * `neighbour`: the result is a registered number the address register gives for an asked number it does not hold
 * (house-numbers.ts); without it a result of another number answers only as its street.
 */
export function matchAddress(query: QueryText, result: PreparedParts, neighbour = false): AddressMatch | undefined {
  if (query.tokens.length === 0) return undefined;
  const settled = isStreetLevel(result.parts.kind) ? settleHouseNumber(query, result, neighbour) : undefined;
  const p = settled?.p ?? result;
  if (!postcodesAgree(query, p)) return undefined;
  const kind = p.parts.kind;
  if (settled !== undefined) {
    let best: { relevance: number; street: number; town: number } | undefined;
    // Originals come before their aliases, so on equal relevance the name the query used is displayed.
    const streets = [...p.streets].sort((a, b) => Number(a.alias) - Number(b.alias));
    for (const street of streets) {
      const m = matchStreet(query, p, street);
      if (m && (!best || m.relevance > best.relevance)) best = m;
    }
    if (!best) return undefined;
    const town = best.town >= 0 ? best.town : Math.min(best.street, p.parts.municipality.length - 1);
    return {
      relevance: round3(best.relevance * HOUSE_ANSWER_FACTOR[settled.answer]),
      kind,
      address: formatAddress(p.parts, { street: best.street, municipality: town }),
    };
  }
  const m = matchArea(query, p);
  if (!m) return undefined;
  return { relevance: m.relevance, kind, address: formatAddress(p.parts, { street: 0, municipality: m.town }) };
}
