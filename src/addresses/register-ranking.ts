/**
 * Judging and ranking the candidate streets of a query (register-search.ts, steps 4 and 5): the candidates are
 * grouped by name and area and judged without a number by the address check (address-match.ts), which drops those
 * that contradict the query and scores the rest; on the best of them the house number is answered (house-numbers.ts:
 * the number itself, or a registered neighbour within 25 m under its own number, else the street level). The display
 * address is in the language the query used.
 */
import type { ResultKind } from '../geocode/address-parts.js';
import { askedHouseNumber, matchAddress, prepareParts, type PreparedParts, type QueryText } from '../geocode/address-match.js';
import { ABBREVIATIONS } from '../geocode/address-words.js';
import type { GeocodeHit } from '../geocode/gazetteer.js';
import { tokenize } from '../geocode/normalize.js';
import { tokenSimilarity } from '../geocode/relevance.js';
import { answerNumber, type NumberAnswer } from './house-numbers.js';
import type { RegisterQueries, StreetRecord } from './register-queries.js';

const COLLATOR = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const KIND_ORDER: Readonly<Record<ResultKind, number>> = { address: 0, street: 1, municipality: 2, place: 3 };

/** Street rows of one name and area, prepared for the address check once, with the house number asked of them. */
interface StreetGroup {
  readonly rows: StreetRecord[];
  readonly prepared: PreparedParts;
  readonly relevance: number;
  readonly asked: string | undefined;
}

/**
 * Up to `limit` hits of `query` among the candidate street rows `ids`, best first, one per address. `streetWords`:
 * the query's words that may name a street (not numbers, not fillers); a street none of them names is no hit.
 */
export function rankStreets(
  queries: RegisterQueries, query: QueryText, streetWords: readonly string[], ids: readonly number[], limit: number,
): GeocodeHit[] {
  const tokens = query.tokens;
  // First the streets, judged without a number, once per name and area (rows of one name in one municipality and
  // postcode read alike); then the house number, on the best of them only.
  const groups = new Map<string, StreetGroup>();
  for (const id of ids) {
    const s = queries.street(id);
    const key = `${s.names}|${s.towns}|${s.localities}|${s.postcode}`;
    const known = groups.get(key);
    if (known !== undefined) {
      known.rows.push(s);
      continue;
    }
    const names = JSON.parse(s.names) as string[];
    // A street is a candidate only when the query names it, not only its municipality.
    if (!streetWords.some((w) => names.some((n) => n.length > 0 && streetNamed(w, n)))) continue;
    const prepared = prepareParts({
      kind: 'street', street: names, postcode: s.postcode, municipality: JSON.parse(s.towns) as string[],
      localities: JSON.parse(s.localities) as string[], countryCode: 'be',
    });
    const asked = askedHouseNumber(tokens, new Set(prepared.streets.flatMap((v) => v.tokens)), s.postcode);
    // The street is judged as if it held the asked number (streetHit then settles how the register answers it), so a
    // four-digit house number it holds is not taken for another postcode.
    const match = matchAddress(query, asked === undefined ? prepared : withNumber(prepared, asked.toUpperCase()));
    if (match !== undefined) groups.set(key, { rows: [s], prepared, relevance: match.relevance, asked: asked?.toUpperCase() });
  }
  const best = [...groups.values()].sort((a, b) => b.relevance - a.relevance).slice(0, Math.max(2 * limit, 10));
  const hits = new Map<string, GeocodeHit>();
  for (const group of best) {
    const hit = streetHit(queries, query, group);
    if (hit !== undefined) {
      const seen = hits.get(hit.address);
      if (seen === undefined || hit.relevance > seen.relevance) hits.set(hit.address, hit);
    }
  }
  return [...hits.values()]
    .sort((a, b) => b.relevance - a.relevance || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || COLLATOR.compare(a.address, b.address))
    .slice(0, limit);
}

/**
 * The hit of a street (its rows of one name and area, prepared at street level) for the query, with the house
 * number answered on the first row that holds it (an exact number before a neighbour); undefined when it
 * contradicts the query.
 */
function streetHit(queries: RegisterQueries, query: QueryText, { rows, prepared, asked }: StreetGroup): GeocodeHit | undefined {
  let found: { answer: NumberAnswer; row: StreetRecord } | undefined;
  for (const row of asked === undefined ? [] : rows) {
    const answer = answerNumber(asked!, queries.numbers(row.id));
    if (answer !== undefined && (found === undefined || (answer.exact && !found.answer.exact))) found = { answer, row };
    if (found?.answer.exact) break;
  }
  const parts = found === undefined ? prepared : withNumber(prepared, found.answer.point.number);
  const match = matchAddress(query, parts, found !== undefined && !found.answer.exact);
  if (match === undefined) return undefined;
  const at = found?.answer.point ?? rows[0]!;
  return { address: match.address, lat: at.lat, lon: at.lon, relevance: match.relevance, kind: match.kind };
}

/** The address of house `number` (as the index keeps it: `16`, `16A`) in the street `street`. */
function withNumber(street: PreparedParts, number: string): PreparedParts {
  return { ...street, parts: { ...street.parts, kind: 'address', houseNumber: number }, houseNumber: tokenize(number).join('') };
}

/** Whether query word `w` names a word of street name `name` (exactly, by prefix, by a small typo or abbreviated). */
function streetNamed(w: string, name: string): boolean {
  return tokenize(name).some((x) => tokenSimilarity(w, x) > 0 || (ABBREVIATIONS[w]?.includes(x) ?? false));
}
