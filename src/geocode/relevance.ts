/**
 * The text score of a result against a query, 0..1: how much of the query the result holds and how much of the result
 * the query asked for. The address check (address-match.ts) turns it into a geocode result's `relevance` by weighing
 * how completely the query names the result; flexsearch only finds candidates, so the number is explainable and
 * stable across flexsearch versions (docs/geocoding.md).
 *
 * Each query token is compared with each entry token (folded, see normalize.ts):
 *   exact 1 · prefix of a word 0.6 + 0.3 × (typed share of the word)
 *   · small typo 0.9 × (1 − edits / longer length) · same phonetic key 0.6, only when the caller passes keys (the
 *     address check does not: a phonetic key alone is no match)
 *   · numbers match exactly or by prefix (0.5), never by typo.
 * `match`    = mean over query tokens of their best similarity (how much of the query was found);
 * `coverage` = share of the entry's tokens matched, weighted by similarity, a number token (house number, postcode)
 *              counting half a word (how much of the entry was asked for; leaving out a number matters less);
 * `relevance = 0.8 × match + 0.2 × coverage`, rounded to 3 decimals. The same tokens in any order give exactly 1.
 */
import { editDistance, isNumeric } from './normalize.js';

/** Folded tokens of one text and, per token, a phonetic key ('' when unknown). */
export interface TokenList {
  readonly tokens: readonly string[];
  readonly keys: readonly string[];
}

/** Result of scoring one entry. */
export interface RelevanceScore {
  /** 0..1, three decimals. */
  readonly relevance: number;
  /** Mean best similarity of the query tokens, before rounding. */
  readonly match: number;
}

const MATCH_WEIGHT = 0.8;
/** Weight of a number token in `coverage`, relative to a word. */
const NUMBER_WEIGHT = 0.5;

/** Typos allowed for a token of this length: none up to 3 letters, then 1, 2, 3 (longer words tolerate more). */
function allowedEdits(length: number): number {
  if (length <= 3) return 0;
  if (length <= 5) return 1;
  if (length <= 8) return 2;
  return 3;
}

/** Similarity of one query token to one entry token, 0..1, as described in the module comment. */
export function tokenSimilarity(q: string, e: string, qKey = '', eKey = ''): number {
  if (q === e) return 1;
  const qNum = isNumeric(q);
  if (qNum || isNumeric(e)) return qNum && isNumeric(e) && e.startsWith(q) ? 0.5 : 0;
  let best = 0;
  if (q.length >= 2 && e.startsWith(q)) best = 0.6 + (0.3 * q.length) / e.length;
  const cap = allowedEdits(Math.min(q.length, e.length));
  if (cap > 0) {
    const d = editDistance(q, e, cap);
    if (d <= cap) best = Math.max(best, 0.9 * (1 - d / Math.max(q.length, e.length)));
  }
  if (qKey !== '' && qKey === eKey && q.length >= 3 && e.length >= 3) best = Math.max(best, 0.6);
  return best;
}

/** Similarity of one query token to one entry token, 0..1, given their phonetic keys. */
export type TokenSimilarity = (q: string, e: string, qKey: string, eKey: string) => number;

/**
 * Scores an entry's token list against the query's; an empty query or entry scores 0. `similarity` is
 * `tokenSimilarity` unless the caller compares tokens its own way (the address check reads abbreviations too).
 */
export function scoreTokens(query: TokenList, entry: TokenList, similarity: TokenSimilarity = tokenSimilarity): RelevanceScore {
  const qn = query.tokens.length;
  const en = entry.tokens.length;
  if (qn === 0 || en === 0) return { relevance: 0, match: 0 };
  const bestForEntry = new Array<number>(en).fill(0);
  let matchSum = 0;
  for (let i = 0; i < qn; i++) {
    let best = 0;
    for (let j = 0; j < en; j++) {
      const s = similarity(query.tokens[i], entry.tokens[j], query.keys[i], entry.keys[j]);
      if (s > best) best = s;
      if (s > bestForEntry[j]) bestForEntry[j] = s;
    }
    matchSum += best;
  }
  let covered = 0;
  let total = 0;
  for (let j = 0; j < en; j++) {
    const w = isNumeric(entry.tokens[j]) ? NUMBER_WEIGHT : 1;
    total += w;
    covered += w * bestForEntry[j];
  }
  const match = matchSum / qn;
  const raw = MATCH_WEIGHT * match + (1 - MATCH_WEIGHT) * (covered / total);
  return { relevance: Math.round(Math.min(1, raw) * 1000) / 1000, match };
}
