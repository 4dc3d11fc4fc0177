/**
 * The download name of a report, `SVC_Report_{slug}.html|pdf`, with the slug made from the report's address. Two
 * forms, as RFC 6266 has them: an ASCII name for `filename=` (accents removed, every other character that is not a
 * letter, digit, `-` or `.` turned into `_`), and a Unicode name for `filename*=` (letters and digits of any script kept).
 * Both are safe on every common filesystem and in a header: no path separators, quotes, control characters, reserved
 * characters (`<>:"/\|?*`), leading or trailing dots or spaces, and at most `SLUG_MAX` characters of slug.
 */

/** Longest slug, in characters (code points); longer addresses are cut at a word boundary where possible. */
export const SLUG_MAX = 80;
/** The slug when nothing usable is left of the address. */
const FALLBACK = 'report';

/** The two forms of the download name. */
export interface ReportFilename {
  /** ASCII only: letters, digits, `-`, `_`, `.` (`SVC_Report_Grand-Place_1_1000_Bruxelles.pdf`, `SVC_Report_50.84675_4.35224.pdf`). */
  readonly ascii: string;
  /** Letters and digits of any script kept (`SVC_Report_Rue_de_l_Étuve_46_1000_Bruxelles.pdf`), NFC. */
  readonly unicode: string;
}

function cut(slug: string): string {
  const chars = Array.from(slug);
  if (chars.length <= SLUG_MAX) return slug;
  const head = chars.slice(0, SLUG_MAX).join('');
  const atWord = head.lastIndexOf('_');
  return atWord >= SLUG_MAX / 2 ? head.slice(0, atWord) : head;
}

/** Runs of unwanted characters become one `_`, runs of dots one dot; no `_`, `-` or `.` at either end. */
function tidy(text: string, keep: RegExp): string {
  let out = '';
  for (const ch of text) out += keep.test(ch) ? ch : '_';
  const ends = /^[._-]+|[._-]+$/g;
  const slug = cut(out.replace(/_+/g, '_').replace(/\.+/g, '.').replace(ends, ''));
  return slug.replace(ends, '') || FALLBACK;
}

const ASCII_KEEP = /^[A-Za-z0-9.-]$/;
const UNICODE_KEEP = /^[\p{L}\p{N}\p{M}.-]$/u;

/** The ASCII and Unicode download names of a report about `address`, in `format`. */
export function reportFilename(address: string, format: 'html' | 'pdf'): ReportFilename {
  const nfc = address.normalize('NFC');
  // Accents off for the ASCII form: decompose, then drop the combining marks; ß, æ, ø and the like become `_`.
  const plain = nfc.normalize('NFD').replace(/\p{M}+/gu, '');
  return {
    ascii: `SVC_Report_${tidy(plain, ASCII_KEEP)}.${format}`,
    unicode: `SVC_Report_${tidy(nfc, UNICODE_KEEP).normalize('NFC')}.${format}`,
  };
}
