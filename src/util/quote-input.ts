/**
 * Quoting of client input inside human-readable messages (problem `detail`, log lines). Input is never echoed
 * verbatim: it is shortened and every character that could change how the message reads is escaped, so markup,
 * control characters and 5 KB paths come back as a short, inert quotation. A key-shaped text (`svc_sk_…`,
 * `svc_pk_…`) is replaced by `[redacted]`, so a message quoting input (and the log line repeating the message) never
 * holds a key.
 */

/** Longest stretch of input a message quotes, in characters (code points), before it is cut with `…`. */
export const QUOTE_MAX_CHARS = 60;

/** An API key, or the start of one, in any letter case. */
const KEY_SHAPED = /svc_(?:sk|pk)_[A-Za-z0-9]*/gi;

/** Escapes of characters that would break the quotation or the reader's view of it. */
const NAMED_ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * A code point that must not appear raw: C0 and C1 controls, DEL, line and paragraph separators, bidirectional
 * overrides and isolates, zero-width and byte-order marks, and markup delimiters (`<`, `>`, `&`, `"`, `` ` ``).
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff<>&"`]/u;

function escapeChar(ch: string): string {
  const named = NAMED_ESCAPES[ch];
  if (named !== undefined) return named;
  if (!UNSAFE.test(ch)) return ch;
  return `\\u${ch.codePointAt(0)!.toString(16).padStart(4, '0')}`;
}

/**
 * `text` as a single-quoted, escaped and shortened quotation: `'Rue Neuve 1'`, `'\u003cscript\u003e…'`. At most
 * `max` code points of the input are kept (a cut is marked with `…` inside the quotes); lone surrogates are escaped;
 * key-shaped text is redacted.
 */
export function quoteInput(text: string, max = QUOTE_MAX_CHARS): string {
  const chars = Array.from(text.replace(KEY_SHAPED, '[redacted]'));
  const kept = chars.length > max ? chars.slice(0, max) : chars;
  let out = '';
  for (const ch of kept) {
    const code = ch.codePointAt(0)!;
    out += code >= 0xd800 && code <= 0xdfff ? `\\u${code.toString(16)}` : escapeChar(ch);
  }
  return `'${out}${chars.length > max ? '…' : ''}'`;
}
