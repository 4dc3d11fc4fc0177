/**
 * The SQL of the register search: every statement the search runs on an open address index (register-index.ts),
 * prepared once, typed by what it takes and returns. Nothing here decides what a word means or how hits rank.
 */
import type { Database, Statement } from '../db/database.js';
import type { NumberedPoint } from './house-numbers.js';

/** Candidate street rows a full-text query returns, at most. */
const CANDIDATES = 40;

/** One row of `streets`: a street in one postcode, names as JSON arrays aligned by language. */
export interface StreetRecord {
  readonly id: number;
  readonly postcode: string;
  readonly names: string;
  readonly towns: string;
  readonly localities: string;
  readonly lat: number;
  readonly lon: number;
}

/** One registered address with its street's names (reverse search). */
export interface AddressRow {
  readonly number: string;
  readonly lat: number;
  readonly lon: number;
  readonly names: string;
  readonly towns: string;
  readonly postcode: string;
}

/** A word in a full-text query: quoted, so nothing the user typed is read as query syntax; `*` for a prefix. */
export function ftsTerm(word: string, prefix = false): string {
  return `"${word.replace(/"/g, '""')}"${prefix ? '*' : ''}`;
}

/** The statements over one open index. */
export class RegisterQueries {
  readonly #match: Statement<[string], { id: number }>;
  readonly #matchRanked: Statement<[string], { id: number }>;
  readonly #street: Statement<[number], StreetRecord>;
  readonly #numbers: Statement<[number], NumberedPoint>;
  readonly #inVocab: Statement<[string], { 1: number }>;
  readonly #corrections: Statement<[string], { word: string }>;
  readonly #near: Statement<[string, string], { word: string }>;
  readonly #prefixWords: Statement<[string, string], { 1: number }>;
  readonly #cells: Statement<[string], AddressRow>;

  constructor(db: Database) {
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

  /** Ids of the street rows matching full-text query `fts`: the first found, or the best ranked. */
  streetIds(fts: string, ranked: boolean): number[] {
    return (ranked ? this.#matchRanked : this.#match).all(fts).map((r) => r.id);
  }

  /** The street row `id` (an id the full-text index returned, so it exists). */
  street(id: number): StreetRecord {
    return this.#street.get(id)!;
  }

  /** The registered house numbers of street row `id`. */
  numbers(id: number): NumberedPoint[] {
    return this.#numbers.all(id);
  }

  /** Whether the register has the folded word `word`. */
  knows(word: string): boolean {
    return this.#inVocab.get(word) !== undefined;
  }

  /** The register's words sharing one of `deletions` (a word and its one-letter deletions) in the delete dictionary. */
  sharingDeletions(deletions: readonly string[]): string[] {
    return this.#corrections.all(JSON.stringify(deletions)).map((r) => r.word);
  }

  /** Up to 2,000 register words beginning with `start` (words near a typo: the same first letters). */
  beginningWith(start: string): string[] {
    return this.#near.all(start, start).map((r) => r.word);
  }

  /** Whether the register has a longer word beginning with `word` (a word still being typed). */
  continues(word: string): boolean {
    return this.#prefixWords.get(word, word) !== undefined;
  }

  /** The registered addresses in `cells` (register-index.ts, `cellOf`). */
  addressesIn(cells: readonly number[]): AddressRow[] {
    return this.#cells.all(JSON.stringify(cells));
  }
}
