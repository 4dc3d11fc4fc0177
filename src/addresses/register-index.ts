/**
 * The address index: one SQLite file under the data directory (`addresses.sqlite`), written by `svc addresses import`
 * and read by the register geocoder. Layout (SCHEMA below):
 *
 * - `streets`: one row per street and postcode (a street crossing two postcodes is two rows), with its names and its
 *   municipality's names in the area's official languages (JSON arrays aligned by language: Brussels fr, nl; Flanders
 *   nl; Wallonia fr, or de and fr in the German-speaking municipalities), the postal names, the region and a point
 *   on the street (its registered address nearest the mean of them all);
 * - `addresses`: one row per house number of a street (boxes folded in, at the mean of their points), with the number's
 *   numeric part for neighbour searches and a ~30 m cell of its point for reverse searches;
 * - `street_words`: full-text index (FTS5) of each street row's folded names (`street`) and its municipality names,
 *   postal names and postcode (`town`), with prefix indexes for words being typed;
 * - `vocab`: every word of those names; `vocab_deletes`: each word and each of its one-letter deletions (a
 *   symmetric-delete dictionary), so a word typed with one letter wrong, missing, extra or swapped finds the
 *   register's word, wherever the typo is;
 * - `meta`: the counts and when and from what the index was imported.
 */
import { join } from 'node:path';
import type { Database } from '../db/database.js';

/** The index file's name in the data directory. */
const ADDRESS_INDEX_FILE = 'addresses.sqlite';

/** Format of the index; a reader refuses another. */
export const INDEX_FORMAT = 2;

/**
 * Cell size of the reverse search, micro-degrees of latitude and longitude: at least 33 × 31 m everywhere in Belgium
 * (longitude degrees shrink northwards; 31.1 m at 51.5° N), so the 3 × 3 cells around a point hold every address
 * within the 30 m of a reverse search.
 */
export const CELL_LAT_E6 = 300;
export const CELL_LON_E6 = 450;

/** The cell of a point (integers: row in the high bits, column in the low 20). */
export function cellOf(lat: number, lon: number): number {
  return Math.floor((lat * 1e6) / CELL_LAT_E6) * 1_048_576 + Math.floor((lon * 1e6) / CELL_LON_E6);
}

/** The tables, created empty by the import. */
export const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE streets (
  id INTEGER PRIMARY KEY, street_id TEXT NOT NULL, postcode TEXT NOT NULL, region TEXT NOT NULL,
  names TEXT NOT NULL, towns TEXT NOT NULL, localities TEXT NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL
);
CREATE TABLE addresses (
  street INTEGER NOT NULL, number TEXT NOT NULL, num INTEGER NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL, cell INTEGER NOT NULL
);
CREATE VIRTUAL TABLE street_words USING fts5(street, town, tokenize = 'unicode61', detail = 'column', prefix = '3 5');
CREATE TABLE vocab (word TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE vocab_deletes (del TEXT NOT NULL, word TEXT NOT NULL);
`;

/** The indexes, made once the rows are in. */
export const INDEXES = `
CREATE INDEX addresses_by_street ON addresses (street, num);
CREATE INDEX addresses_by_cell ON addresses (cell);
CREATE INDEX vocab_by_delete ON vocab_deletes (del);
`;

/** The path of the index under `dataDir`. */
export function addressIndexPath(dataDir: string): string {
  return join(dataDir, ADDRESS_INDEX_FILE);
}

/** What `meta` says about an index. */
export interface IndexSummary {
  readonly addresses: number;
  readonly streets: number;
  readonly rows: number;
  readonly importedUtc: string;
  readonly files: readonly string[];
}

/** Reads `meta` of an open index; throws when it is not an index of this format. */
export function indexSummary(db: Database): IndexSummary {
  const rows = db.prepare<[], { key: string; value: string }>('SELECT key, value FROM meta').all();
  const meta = new Map(rows.map((r) => [r.key, r.value]));
  if (meta.get('format') !== String(INDEX_FORMAT)) {
    throw new Error(`not an address index of format ${INDEX_FORMAT} (format ${meta.get('format') ?? 'none'})`);
  }
  return {
    addresses: Number(meta.get('addresses')),
    streets: Number(meta.get('streets')),
    rows: Number(meta.get('rows')),
    importedUtc: meta.get('imported_utc') ?? '',
    files: JSON.parse(meta.get('files') ?? '[]') as string[],
  };
}

/** The one-letter deletions of `word` (words of four letters or more; shorter ones are matched exactly only). */
export function deletions(word: string): string[] {
  if (word.length < 4) return [];
  const out = new Set<string>();
  for (let i = 0; i < word.length; i++) out.add(word.slice(0, i) + word.slice(i + 1));
  return [...out];
}
