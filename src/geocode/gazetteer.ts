/**
 * Search over the embedded gazetteer. Flexsearch finds candidates (forward tokenizer, so partly typed words match;
 * phonetic keys from its LatinExtra charset, so misspellings match), and so do the municipalities whose postcode or
 * name the query holds; the address check (address-match.ts) then drops every candidate that contradicts the query
 * and scores the others, which decides the order. Accents, case and punctuation never matter (normalize.ts), and
 * other-language names of municipalities and central Brussels streets match through aliases.ts.
 */
import { Charset, Encoder, Index } from 'flexsearch';
import { matchAddress, prepareParts, prepareQuery, type PreparedParts } from './address-match.js';
import { parseDisplayAddress, type ResultKind } from './address-parts.js';
import { aliasVariants } from './aliases.js';
import type { GazetteerEntry } from './gazetteer-types.js';
import { createNearestIndex } from './nearest.js';
import { isNumeric, tokenize } from './normalize.js';

/** One forward-geocoding result; the API layer adds `covered` and `city`. */
export interface GeocodeHit {
  /** One-language display address: street and number, postcode and municipality (or less, per `kind`). */
  readonly address: string;
  readonly lat: number;
  readonly lon: number;
  /** 0..1, see address-match.ts; 1 for an exact match. */
  readonly relevance: number;
  /** How precise the result is; area-level kinds are not usable where street-level data answers (locate.ts). */
  readonly kind: ResultKind;
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

/** Candidates taken from flexsearch before rescoring: generous, because flexsearch's order is not ours. */
const MIN_WINDOW = 200;

const COLLATOR = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

interface Prepared {
  readonly entry: GazetteerEntry;
  readonly parts: PreparedParts;
}

/** The entry's parts; an entry not in the display form is an error naming it (gazetteer data are checked by tests). */
function partsOf(entry: GazetteerEntry): PreparedParts {
  const parts = parseDisplayAddress(entry.address);
  if (parts === undefined) throw new Error(`Gazetteer entry ${JSON.stringify(entry.address)} is not in the display form.`);
  return prepareParts(parts);
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
  /** Flexsearch sees phonetic keys; numbers stay exact so postcodes and house numbers do not blur. */
  const encode = (text: string): string[] => tokenize(text).map(keyOf).filter((k) => k !== '');

  const index = new Index({ tokenize: 'forward', encoder: encode });
  const exact = new Map<string, number[]>();
  /** Municipality and place entries by each word of their name and by postcode, so a fallback is always a candidate. */
  const areas = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string, id: number) => map.set(key, [...(map.get(key) ?? []), id]);
  const prepared: Prepared[] = entries.map((entry, id) => {
    const tokens = tokenize(entry.address);
    const variants = entry.kind === 'place' ? [tokens] : aliasVariants(tokens);
    for (const v of variants) add(exact, v.join(' '), id);
    if (entry.kind !== 'address') for (const t of new Set(variants.flat())) add(areas, t, id);
    index.add(id, variants.map((v) => v.join(' ')).join(' '));
    return { entry, parts: partsOf(entry) };
  });

  const addressIds = prepared.flatMap((p, id) => (p.entry.kind === 'address' ? [id] : []));
  const nearest = createNearestIndex(addressIds.map((id) => prepared[id].entry));

  return {
    search(q, limit) {
      const n = Math.floor(limit);
      const query = prepareQuery(q);
      if (!(n >= 1) || query.tokens.length === 0) return [];
      const found = index.search(q, { limit: Math.max(MIN_WINDOW, n * 20), suggest: true }) as number[];
      const candidates = new Set<number>([
        ...(exact.get(query.tokens.join(' ')) ?? []),
        ...query.tokens.flatMap((t) => areas.get(t) ?? []),
        ...found,
      ]);
      // An entry of another house number than the query's answers only as its street (address-match.ts), at its point.
      const scored: { id: number; relevance: number; address: string; kind: ResultKind }[] = [];
      for (const id of candidates) {
        const m = matchAddress(query, prepared[id].parts);
        if (m) scored.push({ id, relevance: m.relevance, address: m.address, kind: m.kind });
      }
      // A street answered in place of its houses stands at its lowest-numbered house's point, whatever the entry order.
      scored.sort((a, b) => b.relevance - a.relevance || COLLATOR.compare(a.address, b.address) ||
        COLLATOR.compare(prepared[a.id].entry.address, prepared[b.id].entry.address) || a.id - b.id);
      const hits: GeocodeHit[] = [];
      const seen = new Set<string>();
      for (const { id, relevance, address, kind } of scored) {
        if (seen.has(address)) continue;
        seen.add(address);
        const { lat, lon } = prepared[id].entry;
        hits.push({ address, lat, lon, relevance, kind });
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
