/**
 * The address check every geocoder's results go through (docs/scales.md, "Address search"): a result that
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
 *     street the geocoder does not hold, and are accepted only before the municipality (after every left-over word,
 *     and in a later comma-separated part when the query has commas): the municipality-level fallback;
 *  4. a word that is the name of a known municipality ("genk") matches a municipality only exactly, never by typo.
 */
import { aliasVariants } from './aliases.js';
import { formatAddress, isStreetLevel, type AddressParts, type ResultKind } from './address-parts.js';
import { ABBREVIATIONS, COUNTRY_NAMES, MUNICIPALITY_WORDS, STREET_SUFFIXES, isDistinctive, isFiller } from './address-words.js';
import { tokenize } from './normalize.js';
import { scoreTokens, tokenSimilarity, type RelevanceScore, type TokenList } from './relevance.js';

/** Relevance of a municipality-level fallback whose municipality the query names exactly (see `matchAddress`). */
export const FALLBACK_RELEVANCE = 0.65;

/** Share of a street-level result's relevance that does not depend on how completely the query names its street. */
export const STREET_BASE = 0.5;

/** A query prepared once: folded tokens and the comma-separated part each came from. */
export interface QueryText {
  readonly tokens: readonly string[];
  /** For each token, the index of the comma-separated part of the query it came from. */
  readonly segment: readonly number[];
}

/** A result judged consistent with the query. */
export interface AddressMatch {
  /** 0..1, three decimals. */
  readonly relevance: number;
  readonly kind: ResultKind;
  /** One-language display address. */
  readonly address: string;
}

/** One name in one language (or an alias of it); `alt` indexes the displayed alternatives, -1 for never displayed. */
interface Variant {
  readonly tokens: readonly string[];
  readonly alt: number;
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
/** A number, or a house number with a letter ("10a"): never a word that must be explained. */
const NUMBER_LIKE = /^[0-9]+[a-z]?$/;
const NO_KEYS = (tokens: readonly string[]): TokenList => ({ tokens, keys: tokens.map(() => '') });
const round3 = (x: number): number => Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;

/** Folds the query and remembers the comma-separated part of each token. */
export function prepareQuery(text: string): QueryText {
  const tokens: string[] = [];
  const segment: number[] = [];
  text.split(',').forEach((part, s) => {
    for (const t of tokenize(part)) {
      tokens.push(t);
      segment.push(s);
    }
  });
  return { tokens, segment };
}

/** The shared street-type ending of two compound words, when both have one and something before it. */
function sharedSuffix(q: string, e: string): string | undefined {
  return STREET_SUFFIXES.find((x) => q.endsWith(x) && e.endsWith(x) && q.length > x.length && e.length > x.length);
}

/**
 * Similarity of a query word to a result word: exact, prefix or small typo (relevance.ts), or an abbreviation.
 * Two compounds with the same street-type ending are compared on what precedes it (address-words.ts).
 */
export function wordSimilarity(q: string, e: string): number {
  if (ABBREVIATIONS[q]?.includes(e)) return 0.9;
  const s = tokenSimilarity(q, e);
  if (s === 0 || s === 1) return s;
  const suffix = sharedSuffix(q, e);
  if (suffix === undefined) return s;
  const stemSimilarity = tokenSimilarity(q.slice(0, -suffix.length), e.slice(0, -suffix.length));
  return stemSimilarity === 0 ? 0 : s;
}

const similarity = (q: string, e: string): number => wordSimilarity(q, e);

/** Computes the token lists and aliases of `parts`. */
export function prepareParts(parts: AddressParts): PreparedParts {
  const postcode = parts.postcode?.trim() || undefined;
  const context = postcode === undefined ? [] : [postcode];
  const variantsOf = (names: readonly string[], displayed: boolean): Variant[] =>
    names.flatMap((name, alt) =>
      aliasVariants(tokenize(name), context).map((tokens) => ({ tokens, alt: displayed ? alt : -1 })),
    ).filter((v) => v.tokens.length > 0);
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

/** How well a query word names one of the result's towns: exact only for known municipality names (rule 4). */
function townSimilarity(word: string, towns: readonly Variant[]): { sim: number; alt: number } {
  let best = { sim: 0, alt: -1 };
  const exactOnly = MUNICIPALITY_WORDS.has(word);
  for (const v of towns) {
    for (const t of v.tokens) {
      const s = exactOnly ? (t === word ? 1 : 0) : similarity(word, t);
      if (s > best.sim || (s === best.sim && s > 0 && best.alt === -1 && v.alt >= 0)) best = { sim: s, alt: v.alt };
    }
  }
  return best;
}

/**
 * One-to-one alignment of query words to street words, best pairs first. A filler word, and the name of a known
 * municipality (rule 4), align only exactly.
 */
function alignStreet(query: readonly string[], street: readonly string[]): number[] {
  const pairs: [number, number, number][] = [];
  for (let i = 0; i < query.length; i++) {
    const exactOnly = isFiller(query[i]) || MUNICIPALITY_WORDS.has(query[i]);
    for (let j = 0; j < street.length; j++) {
      const s = exactOnly ? (query[i] === street[j] ? 1 : 0) : similarity(query[i], street[j]);
      if (s > 0) pairs.push([s, i, j]);
    }
  }
  pairs.sort((a, b) => b[0] - a[0] || a[1] - b[1] || a[2] - b[2]);
  const out = new Array<number>(query.length).fill(0);
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
  for (const d of distinctive) sum += Math.max(0, ...query.map((q) => (isFiller(q) ? 0 : similarity(q, d))));
  return sum / distinctive.length;
}

/** The best text score of the query against the result with the given street, over each municipality variant. */
function bestText(query: QueryText, p: PreparedParts, street: readonly string[]): { score: RelevanceScore; alt: number } {
  // A country the query names and the result lies in counts as found; the display form leaves the country out.
  const country = query.tokens.filter((t) => p.countryWords.has(t));
  const fixed = [...(p.houseNumber ? [p.houseNumber] : []), ...(p.postcode ? [p.postcode] : []), ...country];
  const q = NO_KEYS(query.tokens);
  let best: { score: RelevanceScore; alt: number } | undefined;
  for (const town of p.towns.filter((v) => v.alt >= 0)) {
    const score = scoreTokens(q, NO_KEYS([...street, ...fixed, ...town.tokens]), similarity);
    if (!best || score.match > best.score.match || (score.match === best.score.match && score.relevance > best.score.relevance)) {
      best = { score, alt: town.alt };
    }
  }
  return best ?? { score: scoreTokens(q, NO_KEYS([...street, ...fixed]), similarity), alt: 0 };
}

/** Rule 2, for one street variant: the relevance and displayed names, or undefined when a query word is unexplained. */
function matchStreet(query: QueryText, p: PreparedParts, street: Variant): { relevance: number; street: number; town: number } | undefined {
  const words = query.tokens;
  const aligned = alignStreet(words, street.tokens);
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
    const t = townSimilarity(w, p.towns);
    if (t.sim > 0) {
      anchored ||= !filler;
      if (town === -1 && !filler) town = t.alt;
    } else if (!filler && !p.countryWords.has(w)) {
      return undefined;
    }
  }
  if (!anchored) return undefined;
  const { score } = bestText(query, p, street.tokens);
  const factor = STREET_BASE + (1 - STREET_BASE) * completeness(words, street.tokens);
  return { relevance: round3(score.relevance * factor), street: street.alt, town };
}

/** Rule 3: a municipality or place named by the query, directly or as the fallback for a street it does not hold. */
function matchArea(query: QueryText, p: PreparedParts): { relevance: number; town: number } | undefined {
  const named: { i: number; sim: number }[] = [];
  const leftOver: number[] = [];
  let town = -1;
  query.tokens.forEach((w, i) => {
    if (NUMBER_LIKE.test(w)) {
      if (w === p.postcode) named.push({ i, sim: 1 });
      return;
    }
    const t = townSimilarity(w, p.towns);
    if (t.sim > 0 && !isFiller(w)) {
      named.push({ i, sim: t.sim });
      if (town === -1) town = t.alt;
    } else if (!isFiller(w) && !p.countryWords.has(w)) {
      leftOver.push(i);
    }
  });
  if (named.length === 0) return undefined;
  const displayTown = Math.max(0, town);
  if (leftOver.length === 0) {
    // The postcode names the area as fully as its name does.
    const byPostcode = p.postcode !== undefined && query.tokens.includes(p.postcode);
    const named = byPostcode ? 1 : Math.max(0, ...p.towns.map((v) => completeness(query.tokens, v.tokens)));
    const factor = STREET_BASE + (1 - STREET_BASE) * named;
    return { relevance: round3(bestText(query, p, []).score.relevance * factor), town: displayTown };
  }
  // The fallback: the municipality must come after the street it stands in for.
  if (Math.min(...named.map((n) => n.i)) < Math.max(...leftOver)) return undefined;
  const namedParts = new Set(named.map((n) => query.segment[n.i]));
  if (new Set(query.segment).size > 1 && leftOver.some((i) => namedParts.has(query.segment[i]))) return undefined;
  const mean = named.reduce((s, n) => s + n.sim, 0) / named.length;
  return { relevance: round3(FALLBACK_RELEVANCE * mean), town: displayTown };
}

/**
 * Judges one result against the query: undefined when it contradicts the query (module comment), otherwise its
 * relevance and display address.
 *
 * Relevance: street level, `0.8 × match + 0.2 × coverage` (relevance.ts) times `0.5 + 0.5 × completeness`, where
 * completeness is how fully the query names the street's distinctive words; a municipality or place the query names
 * with nothing left over, `0.8 × match + 0.2 × coverage`; the fallback, `FALLBACK_RELEVANCE` times the mean
 * similarity of the words naming the municipality.
 */
export function matchAddress(query: QueryText, p: PreparedParts): AddressMatch | undefined {
  if (query.tokens.length === 0 || !postcodesAgree(query, p)) return undefined;
  const kind = p.parts.kind;
  if (isStreetLevel(kind)) {
    let best: { relevance: number; street: number; town: number } | undefined;
    for (const street of p.streets) {
      const m = matchStreet(query, p, street);
      if (m && (!best || m.relevance > best.relevance)) best = m;
    }
    if (!best) return undefined;
    const town = best.town >= 0 ? best.town : Math.min(best.street, p.parts.municipality.length - 1);
    return { relevance: best.relevance, kind, address: formatAddress(p.parts, { street: best.street, municipality: town }) };
  }
  const m = matchArea(query, p);
  if (!m) return undefined;
  return { relevance: m.relevance, kind, address: formatAddress(p.parts, { street: 0, municipality: m.town }) };
}
