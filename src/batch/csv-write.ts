/**
 * CSV writing (RFC 4180): CRLF line ends, a field quoted when it holds a comma, a quote, a line break or leading or
 * trailing space, quotes doubled inside. A field that a spreadsheet would run as a formula (starting with `=`, `+`,
 * `@`, a tab or a carriage return, or `-` not followed by a digit) is quoted and prefixed with `'` (OWASP's advice for
 * CSV injection), so an address such as `=HYPERLINK(…)` is shown, not run; negative numbers are left alone.
 */

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;
const FORMULA = /^(?:[=+@\t\r]|-(?![\d.]))/;

/** One field as written. */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record with its CRLF. */
export function csvLine(fields: readonly (string | number | boolean | null | undefined)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}
