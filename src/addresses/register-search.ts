/**
 * Forward and reverse search over the address index (register-index.ts), one file per role.
 *
 * Forward, for free text in French, Dutch or German:
 * 1. the query is folded (normalize.ts) into words, postcodes (1000–9999) and a house number (digits with an optional
 *    letter); a query of more words than any address has answers nothing;
 * 2. each word stands for itself, the words it abbreviates, the register's words one typo away and, for the last
 *    word, the words it begins (register-spelling.ts);
 * 3. the full-text index finds the street rows holding every word, best first, or, when none holds them all, those
 *    holding most (register-candidates.ts);
 * 4. on each candidate street the house number is answered, and
 * 5. the address check drops candidates that contradict the query and scores the rest (register-ranking.ts); the
 *    display address is in the language the query used.
 *
 * Reverse: the nearest registered address within 30 m of a point (register-reverse.ts). The SQL of all of them is in
 * register-queries.ts.
 */
import type { Database } from '../db/database.js';
import { prepareQuery } from '../geocode/address-match.js';
import { isFiller } from '../geocode/address-words.js';
import type { GeocodeHit } from '../geocode/gazetteer.js';
import { candidateStreets } from './register-candidates.js';
import { RegisterQueries } from './register-queries.js';
import { rankStreets } from './register-ranking.js';
import { reverseLookup } from './register-reverse.js';
import { expandCompounds } from './register-spelling.js';

/** No address has more words than this; longer queries answer nothing rather than cost a scan. */
const MAX_WORDS = 16;

const POSTCODE = /^[1-9][0-9]{3}$/;

/** Search over one open index. */
export class RegisterSearch {
  readonly #queries: RegisterQueries;

  constructor(db: Database) {
    this.#queries = new RegisterQueries(db);
  }

  /** Up to `limit` street- and address-level hits for `q`, best first. */
  search(q: string, limit: number): GeocodeHit[] {
    const query = prepareQuery(expandCompounds(this.#queries, q));
    const tokens = query.tokens;
    if (tokens.length === 0 || tokens.length > MAX_WORDS) return [];
    const postcodes = tokens.filter((t) => POSTCODE.test(t));
    // Number-like words may be a postcode, a house number (1200 may be either) or part of a street's name (Rue du 11
    // Novembre, Rue du 1er Mai); which is which is settled per street (askedHouseNumber).
    const words = tokens.filter((t) => !/^[0-9]/.test(t));
    const streetWords = words.filter((w) => !isFiller(w));
    if (streetWords.length === 0) return [];
    return rankStreets(this.#queries, query, streetWords, candidateStreets(this.#queries, words, postcodes), limit);
  }

  /** The nearest registered address within 30 m of (lat, lon), in the area's first language. */
  reverse(lat: number, lon: number): string | undefined {
    return reverseLookup(this.#queries, lat, lon);
  }
}
