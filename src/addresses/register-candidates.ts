/**
 * Candidate street rows for a query's words (register-search.ts, step 3): the full-text index finds the street rows
 * holding every word in one of its forms (register-spelling.ts), in their names, municipality, postal names or
 * postcode; when none holds them all, those holding most, best first.
 */
import { isDistinctive, isFiller } from '../geocode/address-words.js';
import { ftsTerm, type RegisterQueries } from './register-queries.js';
import { wordForms } from './register-spelling.js';

/**
 * Ids of the candidate street rows for the query's folded `words` and `postcodes`. Only the words that tell streets
 * apart are asked of the index (not street types or particles: "rue", "de", "straat" are in tens of thousands of
 * rows), unless the query has no other; the address check judges every word anyway.
 */
export function candidateStreets(queries: RegisterQueries, words: readonly string[], postcodes: readonly string[]): number[] {
  const distinctive = words.filter((w) => isDistinctive(w) && !isFiller(w));
  const asked = distinctive.length > 0 ? distinctive : words;
  const groups: string[] = [];
  asked.forEach((w) => {
    const forms = wordForms(queries, w, w === words[words.length - 1]);
    if (forms.length > 0) groups.push(`(${forms.join(' OR ')})`);
  });
  // A four-digit number may be a house number (Chaussée d'Alsemberg 1200, 1180 Uccle): the street's postcode is one of them.
  if (postcodes.length > 0) groups.push(`(${postcodes.map((p) => `town : ${ftsTerm(p)}`).join(' OR ')})`);
  if (groups.length === 0) return [];
  const all = queries.streetIds(groups.join(' AND '), false);
  if (all.length > 0 || groups.length === 1) return all;
  return queries.streetIds(groups.join(' OR '), true);
}
