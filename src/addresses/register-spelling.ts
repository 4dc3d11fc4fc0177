/**
 * How the register search reads what was typed, word by word (register-search.ts, step 2): each word stands for
 * itself, the words it abbreviates (Av., Bd, Chée, Str., Stwg: address-words.ts), the register's words one typo away
 * (the symmetric-delete dictionary, and words sharing its first two letters within the typos relevance.ts allows)
 * and, for the last word, the words it begins. Abbreviated endings of compound names (`Waversestwg`) are written
 * out first.
 */
import { ABBREVIATIONS } from '../geocode/address-words.js';
import { editDistance, foldText } from '../geocode/normalize.js';
import { tokenSimilarity } from '../geocode/relevance.js';
import { deletions } from './register-index.js';
import { ftsTerm, type RegisterQueries } from './register-queries.js';

/** The other folded forms a word is searched as, at most. */
const MAX_FORMS = 12;

/** Abbreviated endings of compound street names and what they stand for. */
const COMPOUND_ENDINGS: readonly (readonly [string, readonly string[]])[] = [['stwg', ['steenweg']], ['str', ['straat', 'strasse']]];

/**
 * The full-text terms folded word `word` is searched as; empty when the register knows no form of it (a word it does
 * not know at all is left to the address check). `last`: the query's last word, perhaps still being typed.
 */
export function wordForms(queries: RegisterQueries, word: string, last: boolean): string[] {
  const forms = new Set<string>();
  const known = queries.knows(word);
  if (known) forms.add(word);
  for (const full of ABBREVIATIONS[word] ?? []) if (queries.knows(full)) forms.add(full);
  if (!known && word.length >= 4 && !/^[0-9]/.test(word)) {
    for (const w of queries.sharingDeletions([word, ...deletions(word)])) if (editDistance(word, w, 1) <= 1) forms.add(w);
    if (forms.size === 0) {
      for (const w of queries.beginningWith(word.slice(0, 2))) {
        if (tokenSimilarity(word, w) >= 0.6 && forms.size < MAX_FORMS) forms.add(w);
      }
    }
  }
  const out = [...forms].slice(0, MAX_FORMS).map((f) => ftsTerm(f));
  if (last && word.length >= 3 && !/^[0-9]/.test(word) && queries.continues(word)) out.push(ftsTerm(word, true));
  return out;
}

/**
 * `q` with abbreviated compound endings written out where the register knows the whole word: `Waversestwg` →
 * `Waversesteenweg`, `Wetstr` → `Wetstraat` (address-words.ts knows them only as words of their own).
 */
export function expandCompounds(queries: RegisterQueries, q: string): string {
  return q.replace(/\p{L}{3,}(?:stwg|str)\b\.?/giu, (word) => {
    const folded = foldText(word.replace(/\.$/, ''));
    for (const [end, fulls] of COMPOUND_ENDINGS) {
      if (!folded.endsWith(end)) continue;
      for (const full of fulls) {
        const whole = folded.slice(0, -end.length) + full;
        if (queries.knows(whole)) return whole;
      }
    }
    return word;
  });
}
