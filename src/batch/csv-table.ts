/**
 * A small RFC 4180 reader for uploaded tables (the batch route's `text/csv` bodies). It accepts what spreadsheets
 * write: an optional UTF-8 byte-order mark, CRLF, LF or CR line ends (mixed in one file), quoted fields with `""` for
 * a quote and line breaks inside quotes; a final line end is optional and blank lines are skipped. Everything else is
 * refused with a `ValidationError` naming the line: a quote inside an unquoted field, text after a closing quote, an
 * unclosed quote, a row whose field count differs from the header's.
 *
 * The work is bounded before it is done: the caller gives the most rows, columns and characters per row, and the
 * reader stops at the first one exceeded (so a hostile body costs at most one pass over its bytes).
 */
import { ValidationError } from '../errors.js';

/** The bounds of one table. */
export interface CsvLimits {
  /** Data rows (the header not counted). */
  readonly maxRows: number;
  readonly maxColumns: number;
  /** Characters of one row, its quotes and separators included. */
  readonly maxRowChars: number;
}

/** A parsed table: the header's names and each data row with its line number (1-based, as an editor shows it). */
export interface CsvTable {
  readonly header: readonly string[];
  readonly rows: readonly { readonly line: number; readonly fields: readonly string[] }[];
}

const QUOTE = 34;
const COMMA = 44;
const CR = 13;
const LF = 10;

/** Reads records one at a time from the text. */
class RecordReader {
  readonly #text: string;
  readonly #limits: CsvLimits;
  #pos: number;
  /** The line the next record starts on. */
  line = 1;

  constructor(text: string, limits: CsvLimits) {
    this.#text = text;
    this.#limits = limits;
    this.#pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  }

  get done(): boolean {
    return this.#pos >= this.#text.length;
  }

  /** The next record's fields; an empty array for a blank line. */
  next(): string[] {
    const text = this.#text;
    const start = this.#pos;
    const startLine = this.line;
    const fields: string[] = [];
    let field = '';
    let quoted = false;
    let afterQuote = false;
    let i = this.#pos;
    const fail = (why: string): never => {
      throw new ValidationError(`The CSV body is malformed on line ${this.line}: ${why}.`);
    };
    for (;;) {
      if (i - start > this.#limits.maxRowChars) fail(`a row is longer than ${this.#limits.maxRowChars} characters`);
      if (i >= text.length) {
        if (quoted) {
          this.line = startLine;
          fail('a quoted field is not closed');
        }
        break;
      }
      const c = text.charCodeAt(i);
      if (quoted) {
        if (c === QUOTE) {
          if (text.charCodeAt(i + 1) === QUOTE) {
            field += '"';
            i += 2;
          } else {
            quoted = false;
            afterQuote = true;
            i += 1;
          }
          continue;
        }
        if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) this.line++;
        field += text[i];
        i += 1;
        continue;
      }
      if (c === COMMA) {
        fields.push(field);
        if (fields.length >= this.#limits.maxColumns) fail(`a row has more than ${this.#limits.maxColumns} columns`);
        field = '';
        afterQuote = false;
        i += 1;
        continue;
      }
      if (c === CR || c === LF) {
        i += c === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
        this.line++;
        this.#pos = i;
        if (fields.length === 0 && field === '' && !afterQuote) return [];
        fields.push(field);
        return fields;
      }
      if (afterQuote) fail('text follows a closing quote (write "" for a quote inside a quoted field)');
      if (c === QUOTE) {
        if (field !== '') fail('a quote inside an unquoted field (quote the whole field)');
        quoted = true;
        i += 1;
        continue;
      }
      field += text[i];
      i += 1;
    }
    this.#pos = i;
    if (fields.length === 0 && field === '' && !afterQuote) return [];
    fields.push(field);
    return fields;
  }
}

/** Parses a whole table whose first non-blank record is the header; refuses what the module comment says. */
export function parseCsv(text: string, limits: CsvLimits): CsvTable {
  const reader = new RecordReader(text, limits);
  let header: string[] | undefined;
  const rows: { line: number; fields: string[] }[] = [];
  while (!reader.done) {
    const line = reader.line;
    const fields = reader.next();
    if (fields.length === 0) continue;
    if (header === undefined) {
      header = fields.map((f) => f.trim());
      continue;
    }
    if (fields.length !== header.length) {
      throw new ValidationError(`The CSV body is malformed on line ${line}: ${fields.length} fields where the header has ${header.length}.`);
    }
    if (rows.length >= limits.maxRows) {
      throw new ValidationError(`The CSV body has more than ${limits.maxRows} data rows.`);
    }
    rows.push({ line, fields });
  }
  if (header === undefined) throw new ValidationError('The CSV body is empty: it needs a header row and at least one data row.');
  return { header, rows };
}
