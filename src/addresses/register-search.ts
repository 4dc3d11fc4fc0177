/**
 * Forward and reverse search over the address index (register-index.ts).
 *
 * Forward, for free text in French, Dutch or German:
 * 1. the query is folded (normalize.ts) into words, postcodes (1000–9999) and a house number (digits with an optional
 *    letter); a query of more words than any address has answers nothing;
 * 2. each word stands for itself, the words it abbreviates (Av., Bd, Chée, Str., Stwg: address-words.ts), the
 *    register's words one typo away (the symmetric-delete dictionary, and words sharing its first two letters within
 *    the typos relevance.ts allows) and, for the last word, the words it begins; a word the register does not know
 *    at all is left to the address check;
 * 3. the full-text index finds the street rows holding every word (in their names, municipality, postal names or
 *    postcode), best first, or, when none holds them all, those holding most;
 * 4. on each candidate street the house number is answered (house-numbers.ts: the number itself, or a registered
 *    neighbour within 25 m under its own number, else the street level);
 * 5. the address check (address-match.ts) drops candidates that contradict the query and scores the rest; the
 *    display address is in the language the query used.
 *
 * Reverse: the nearest registered address within `REVERSE_RADIUS_M` of a point.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { formatAddress, type ResultKind } from '../geocode/address-parts.js';
import { askedHouseNumber, matchAddress, prepareParts, prepareQuery, type PreparedParts, type QueryText } from '../geocode/address-match.js';
import { ABBREVIATIONS, isDistinctive, isFiller } from '../geocode/address-words.js';
import type { GeocodeHit } from '../geocode/gazetteer.js';
import { editDistance, foldText, tokenize } from '../geocode/normalize.js';
import { tokenSimilarity } from '../geocode/relevance.js';
import { answerNumber, nearDistanceM, type NumberAnswer, type NumberedPoint } from './house-numbers.js';
import { cellOf, deletions } from './register-index.js';

/** How far reverse geocoding looks for a registered address, metres. */
const REVERSE_RADIUS_M = 30;

/** Candidate street rows examined per query. */
const CANDIDATES = 40;
/** No address has more words than this; longer queries answer nothing rather than cost a scan. */
const MAX_WORDS = 16;
/** The other folded forms a word is searched as, at most. */
const MAX_FORMS = 12;

const POSTCODE = /^[1-9][0-9]{3}$/;
/** Abbreviated endings of compound street names and what they stand for. */
const COMPOUND_ENDINGS: readonly (readonly [string, readonly string[]])[] = [['stwg', ['steenweg']], ['str', ['straat', 'strasse']]];
const COLLATOR = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const KIND_ORDER: Readonly<Record<ResultKind, number>> = { address: 0, street: 1, municipality: 2, place: 3 };

/** Street rows of one name and area, prepared for the address check once, with the house number asked of them. */
interface StreetGroup {
  readonly rows: StreetRecord[];
  readonly prepared: PreparedParts;
  readonly relevance: number;
  readonly asked: string | undefined;
}

interface StreetRecord {
  readonly id: number;
  readonly postcode: string;
  readonly names: string;
  readonly towns: string;
  readonly localities: string;
  readonly lat: number;
  readonly lon: number;
}

/** A word in a full-text query: quoted, so nothing the user typed is read as query syntax. */
const term = (word: string, prefix = false) => `"${word.replace(/"/g, '""')}"${prefix ? '*' : ''}`;

/** Search over one open index. */
export class RegisterSearch {
  readonly #match: StatementSync;
  readonly #matchRanked: StatementSync;
  readonly #street: StatementSync;
  readonly #numbers: StatementSync;
  readonly #inVocab: StatementSync;
  readonly #corrections: StatementSync;
  readonly #near: StatementSync;
  readonly #prefixWords: StatementSync;
  readonly #cells: StatementSync;

  constructor(db: DatabaseSync) {
    // Rows holding every word are equally good candidates, so the first found are taken (ranking them all would cost
    // as much as there are streets of a common name); rows holding only some are ranked.
    this.#match = db.prepare(`SELECT rowid AS id FROM street_words WHERE street_words MATCH ? LIMIT ${CANDIDATES}`);
    this.#matchRanked = db.prepare(`SELECT rowid AS id FROM street_words WHERE street_words MATCH ? ORDER BY rank LIMIT ${CANDIDATES}`);
    this.#street = db.prepare('SELECT id, postcode, names, towns, localities, lat, lon FROM streets WHERE id = ?');
    this.#numbers = db.prepare('SELECT number, num, lat, lon FROM addresses WHERE street = ?');
    this.#inVocab = db.prepare('SELECT 1 FROM vocab WHERE word = ?');
    this.#corrections = db.prepare('SELECT DISTINCT word FROM vocab_deletes WHERE del IN (SELECT value FROM json_each(?))');
    this.#near = db.prepare("SELECT word FROM vocab WHERE word >= ? AND word < ? || char(123) LIMIT 2000");
    this.#prefixWords = db.prepare("SELECT 1 FROM vocab WHERE word > ? AND word < ? || char(123) LIMIT 1");
    this.#cells = db.prepare(`SELECT a.number, a.lat, a.lon, s.names, s.towns, s.postcode
      FROM addresses a JOIN streets s ON s.id = a.street WHERE a.cell IN (SELECT value FROM json_each(?))`);
  }

  /** The forms `word` is searched as (module comment, step 2); empty when the register knows none. */
  #forms(word: string, last: boolean): string[] {
    const forms = new Set<string>();
    const known = this.#inVocab.get(word) !== undefined;
    if (known) forms.add(word);
    for (const full of ABBREVIATIONS[word] ?? []) if (this.#inVocab.get(full) !== undefined) forms.add(full);
    if (!known && word.length >= 4 && !/^[0-9]/.test(word)) {
      const rows = this.#corrections.all(JSON.stringify([word, ...deletions(word)])) as { word: string }[];
      for (const r of rows) if (editDistance(word, r.word, 1) <= 1) forms.add(r.word);
      if (forms.size === 0) {
        for (const r of this.#near.all(word.slice(0, 2), word.slice(0, 2)) as { word: string }[]) {
          if (tokenSimilarity(word, r.word) >= 0.6 && forms.size < MAX_FORMS) forms.add(r.word);
        }
      }
    }
    const out = [...forms].slice(0, MAX_FORMS).map((f) => term(f));
    if (last && word.length >= 3 && !/^[0-9]/.test(word) && this.#prefixWords.get(word, word) !== undefined) out.push(term(word, true));
    return out;
  }

  /**
   * Candidate street rows for the query's words and postcodes. Only the words that tell streets apart are asked of
   * the index (not street types or particles: "rue", "de", "straat" are in tens of thousands of rows), unless the
   * query has no other; the address check judges every word anyway.
   */
  #candidates(words: readonly string[], postcodes: readonly string[]): number[] {
    const distinctive = words.filter((w) => isDistinctive(w) && !isFiller(w));
    const asked = distinctive.length > 0 ? distinctive : words;
    const groups: string[] = [];
    asked.forEach((w) => {
      const forms = this.#forms(w, w === words[words.length - 1]);
      if (forms.length > 0) groups.push(`(${forms.join(' OR ')})`);
    });
    // A four-digit number may be a house number (Chaussée d'Alsemberg 1200, 1180 Uccle): the street's postcode is one of them.
    if (postcodes.length > 0) groups.push(`(${postcodes.map((p) => `town : ${term(p)}`).join(' OR ')})`);
    if (groups.length === 0) return [];
    const all = this.#match.all(groups.join(' AND ')) as { id: number }[];
    if (all.length > 0 || groups.length === 1) return all.map((r) => r.id);
    return (this.#matchRanked.all(groups.join(' OR ')) as { id: number }[]).map((r) => r.id);
  }

  /**
   * `q` with abbreviated compound endings written out where the register knows the whole word: `Waversestwg` →
   * `Waversesteenweg`, `Wetstr` → `Wetstraat` (address-words.ts knows them only as words of their own).
   */
  #expandCompounds(q: string): string {
    return q.replace(/\p{L}{3,}(?:stwg|str)\b\.?/giu, (word) => {
      const folded = foldText(word.replace(/\.$/, ''));
      for (const [end, fulls] of COMPOUND_ENDINGS) {
        if (!folded.endsWith(end)) continue;
        for (const full of fulls) {
          const whole = folded.slice(0, -end.length) + full;
          if (this.#inVocab.get(whole) !== undefined) return whole;
        }
      }
      return word;
    });
  }

  /** Up to `limit` street- and address-level hits for `q`, best first. */
  search(q: string, limit: number): GeocodeHit[] {
    const query = prepareQuery(this.#expandCompounds(q));
    const tokens = query.tokens;
    if (tokens.length === 0 || tokens.length > MAX_WORDS) return [];
    const postcodes = tokens.filter((t) => POSTCODE.test(t));
    // Number-like words may be a postcode, a house number (1200 may be either) or part of a street's name (Rue du 11
    // Novembre, Rue du 1er Mai); which is which is settled per street (askedHouseNumber).
    const words = tokens.filter((t) => !/^[0-9]/.test(t));
    const streetWords = words.filter((w) => !isFiller(w));
    if (streetWords.length === 0) return [];
    // First the streets, judged without a number, once per name and area (rows of one name in one municipality and
    // postcode read alike); then the house number, on the best of them only.
    const groups = new Map<string, StreetGroup>();
    for (const id of this.#candidates(words, postcodes)) {
      const s = this.#street.get(id) as unknown as StreetRecord;
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
      // The street is judged as if it held the asked number (#hit then settles how the register answers it), so a
      // four-digit house number it holds is not taken for another postcode.
      const match = matchAddress(query, asked === undefined ? prepared : withNumber(prepared, asked.toUpperCase()));
      if (match !== undefined) groups.set(key, { rows: [s], prepared, relevance: match.relevance, asked: asked?.toUpperCase() });
    }
    const best = [...groups.values()].sort((a, b) => b.relevance - a.relevance).slice(0, Math.max(2 * limit, 10));
    const hits = new Map<string, GeocodeHit>();
    for (const group of best) {
      const hit = this.#hit(query, group.rows, group.prepared, group.asked);
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
   * The hit of a street (its rows of one name and area, `prepared` at street level) for the query, with the house
   * number answered on the first row that holds it (an exact number before a neighbour); undefined when it
   * contradicts the query.
   */
  #hit(query: QueryText, rows: readonly StreetRecord[], prepared: PreparedParts, asked: string | undefined): GeocodeHit | undefined {
    let found: { answer: NumberAnswer; row: StreetRecord } | undefined;
    for (const row of asked === undefined ? [] : rows) {
      const answer = answerNumber(asked!, this.#numbers.all(row.id) as unknown as NumberedPoint[]);
      if (answer !== undefined && (found === undefined || (answer.exact && !found.answer.exact))) found = { answer, row };
      if (found?.answer.exact) break;
    }
    const parts = found === undefined ? prepared : withNumber(prepared, found.answer.point.number);
    const match = matchAddress(query, parts, found !== undefined && !found.answer.exact);
    if (match === undefined) return undefined;
    const at = found?.answer.point ?? rows[0]!;
    return { address: match.address, lat: at.lat, lon: at.lon, relevance: match.relevance, kind: match.kind };
  }

  /** The nearest registered address within `REVERSE_RADIUS_M` of (lat, lon), in the area's first language. */
  reverse(lat: number, lon: number): string | undefined {
    const centre = cellOf(lat, lon);
    const cells: number[] = [];
    for (const dr of [-1, 0, 1]) for (const dc of [-1, 0, 1]) cells.push(centre + dr * 1_048_576 + dc);
    let best: { row: { number: string; names: string; towns: string; postcode: string }; d: number } | undefined;
    for (const row of this.#cells.all(JSON.stringify(cells)) as unknown as { number: string; lat: number; lon: number; names: string; towns: string; postcode: string }[]) {
      const d = nearDistanceM({ lat, lon }, row);
      if (d <= REVERSE_RADIUS_M && (best === undefined || d < best.d)) best = { row, d };
    }
    if (best === undefined) return undefined;
    const { row } = best;
    return formatAddress({
      kind: 'address', street: JSON.parse(row.names) as string[], houseNumber: row.number, postcode: row.postcode,
      municipality: JSON.parse(row.towns) as string[], countryCode: 'be',
    });
  }
}

/** The address of house `number` (as the index keeps it: `16`, `16A`) in the street `street`. */
function withNumber(street: PreparedParts, number: string): PreparedParts {
  return { ...street, parts: { ...street.parts, kind: 'address', houseNumber: number }, houseNumber: tokenize(number).join('') };
}

/** Whether query word `w` names a word of street name `name` (exactly, by prefix, by a small typo or abbreviated). */
function streetNamed(w: string, name: string): boolean {
  return tokenize(name).some((x) => tokenSimilarity(w, x) > 0 || (ABBREVIATIONS[w]?.includes(x) ?? false));
}
