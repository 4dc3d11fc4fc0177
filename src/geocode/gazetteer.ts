/**
 * Search over the embedded gazetteer. Flexsearch finds candidates (forward tokenizer, so partly typed words match;
 * phonetic keys from its LatinExtra charset, so misspellings match); relevance.ts then scores every candidate and
 * decides the order. Accents, case and punctuation never matter (normalize.ts), and other-language names of
 * municipalities and central Brussels streets match through aliases.ts.
 */
import { Charset, Encoder, Index } from 'flexsearch';
import { aliasVariants } from './aliases.js';
import type { GazetteerEntry } from './gazetteer-types.js';
import { createNearestIndex } from './nearest.js';
import { isNumeric, tokenize } from './normalize.js';
import { scoreTokens, type TokenList } from './relevance.js';

/** One forward-geocoding result; the API layer adds `covered` and `city`. */
export interface GeocodeHit {
  readonly address: string;
  readonly lat: number;
  readonly lon: number;
  /** 0..1, see relevance.ts; 1 for an exact match. */
  readonly relevance: number;
}

/** The searchable gazetteer. */
export interface Gazetteer {
  /** Up to `limit` hits, best first; ties ordered by address (numbers in numeric order), then gazetteer order. */
  search(q: string, limit: number): GeocodeHit[];
  /** The nearest `address` entry within `REVERSE_MAX_DISTANCE_M`, or undefined. */
  reverse(lat: number, lon: number): GazetteerEntry | undefined;
}

/** How far reverse geocoding looks for an address, in metres. */
export const REVERSE_MAX_DISTANCE_M = 150;

/** A candidate whose query tokens match less than this on average is dropped as noise from phonetic matching. */
export const MIN_MATCH = 0.3;

/** Candidates taken from flexsearch before rescoring: generous, because flexsearch's order is not ours. */
const MIN_WINDOW = 200;

const COLLATOR = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

interface Prepared {
  readonly entry: GazetteerEntry;
  readonly variants: readonly TokenList[];
}

/** Builds the search and reverse indexes once; the entry array is not modified or retained beyond its items. */
export function createGazetteer(entries: readonly GazetteerEntry[]): Gazetteer {
  const phonetic = new Encoder(Charset.LatinExtra);
  const keyCache = new Map<string, string>();
  const keyOf = (token: string): string => {
    let key = keyCache.get(token);
    if (key === undefined) {
      key = isNumeric(token) ? token : phonetic.encode(token).join('');
      keyCache.set(token, key);
    }
    return key;
  };
  const toList = (tokens: readonly string[]): TokenList => ({ tokens, keys: tokens.map(keyOf) });
  /** Flexsearch sees phonetic keys; numbers stay exact so postcodes and house numbers do not blur. */
  const encode = (text: string): string[] => tokenize(text).map(keyOf).filter((k) => k !== '');

  const index = new Index({ tokenize: 'forward', encoder: encode });
  const exact = new Map<string, number[]>();
  const prepared: Prepared[] = entries.map((entry, id) => {
    const tokens = tokenize(entry.address);
    const variants = entry.kind === 'place' ? [tokens] : aliasVariants(tokens);
    for (const v of variants) {
      const key = v.join(' ');
      exact.set(key, [...(exact.get(key) ?? []), id]);
    }
    index.add(id, variants.map((v) => v.join(' ')).join(' '));
    return { entry, variants: variants.map(toList) };
  });

  const addressIds = prepared.flatMap((p, id) => (p.entry.kind === 'address' ? [id] : []));
  const nearest = createNearestIndex(addressIds.map((id) => prepared[id].entry));

  return {
    search(q, limit) {
      const n = Math.floor(limit);
      const query = toList(tokenize(q));
      if (!(n >= 1) || query.tokens.length === 0) return [];
      const found = index.search(q, { limit: Math.max(MIN_WINDOW, n * 20), suggest: true }) as number[];
      const candidates = new Set<number>([...(exact.get(query.tokens.join(' ')) ?? []), ...found]);
      const scored: { id: number; relevance: number }[] = [];
      for (const id of candidates) {
        // A variant replaces the original only when it matches more of the query, so an alias that the query did
        // not use cannot change the score through its different token count.
        const [original, ...others] = prepared[id].variants;
        let best = scoreTokens(query, original);
        for (const v of others) {
          const s = scoreTokens(query, v);
          if (s.match > best.match) best = s;
        }
        if (best.match >= MIN_MATCH) scored.push({ id, relevance: best.relevance });
      }
      scored.sort(
        (a, b) =>
          b.relevance - a.relevance ||
          COLLATOR.compare(prepared[a.id].entry.address, prepared[b.id].entry.address) ||
          a.id - b.id,
      );
      const hits: GeocodeHit[] = [];
      const seen = new Set<string>();
      for (const { id, relevance } of scored) {
        const { address, lat, lon } = prepared[id].entry;
        if (seen.has(address)) continue;
        seen.add(address);
        hits.push({ address, lat, lon, relevance });
        if (hits.length === n) break;
      }
      return hits;
    },

    reverse(lat, lon) {
      const at = nearest.nearest(lat, lon, REVERSE_MAX_DISTANCE_M);
      return at === undefined ? undefined : prepared[addressIds[at]].entry;
    },
  };
}
