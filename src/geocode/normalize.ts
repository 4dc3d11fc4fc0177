/**
 * Text folding for address search: case, accents, ligatures and punctuation are ignored, so "Marché", "marche" and
 * "MARCHE" are one token and "Grand-Place" is the two tokens `grand place`. Both the index and the query go through
 * `tokenize`, which is what makes accent-free and punctuation-free queries match.
 */

/** Letters that Unicode decomposition does not reduce to ASCII but Belgian and neighbouring names use. */
const LETTER_FOLDS: Readonly<Record<string, string>> = {
  œ: 'oe',
  æ: 'ae',
  ß: 'ss',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ı: 'i',
};

const COMBINING_MARKS = /\p{M}+/gu;
const FOLDABLE = /[œæßøłđı]/g;
const NON_ALNUM = /[^a-z0-9]+/g;

/** Lower case, accents removed, every run of non-alphanumerics turned into one space, trimmed. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .toLowerCase()
    .replace(FOLDABLE, (ch) => LETTER_FOLDS[ch] ?? ch)
    .replace(NON_ALNUM, ' ')
    .trim();
}

/** The folded tokens of `text`, in order (may be empty). */
export function tokenize(text: string): string[] {
  const folded = foldText(text);
  return folded === '' ? [] : folded.split(' ');
}

/** True for a token made only of digits (house numbers, postcodes), which is matched exactly or by prefix only. */
export function isNumeric(token: string): boolean {
  return /^[0-9]+$/.test(token);
}

/**
 * Optimal string alignment distance (Levenshtein plus adjacent transposition), or `cap + 1` as soon as the distance
 * is known to exceed `cap`; callers only care whether a typo is small.
 */
export function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  if (a === b) return 0;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > cap) return cap + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return Math.min(prev[n], cap + 1);
}
