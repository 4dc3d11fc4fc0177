/**
 * Reading the files of BeSt Address (Belgian Streets and Addresses, the federal consolidation of the regional address
 * registers) in their flat CSV form: `openaddress-bebru.csv`, `-bevlg.csv`, `-bewal.csv`, plain, gzipped (`.gz`) or
 * zipped (`.zip`, every `.csv` entry in it). Streaming: a file of any size is read in chunks, decoded as strict UTF-8,
 * split into RFC 4180 records (quoted fields may hold commas, quotes and line breaks) and checked against the
 * register's 20-column header. Any fault (a wrong header, broken quoting, a row of another width, bytes that are not
 * UTF-8, a truncated or corrupt archive) stops the read with a `RegisterFileError` naming the file, the line and the
 * reason.
 */
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { RegisterFileError, type BytesRead } from './register-file-error.js';
import { zipCsvEntries } from './zip-entries.js';

export { RegisterFileError, type BytesRead } from './register-file-error.js';

/** The register's columns, in order. */
export const REGISTER_COLUMNS = [
  'EPSG:31370_x', 'EPSG:31370_y', 'EPSG:4326_lat', 'EPSG:4326_lon', 'address_id', 'box_number', 'house_number',
  'municipality_id', 'municipality_name_de', 'municipality_name_fr', 'municipality_name_nl', 'postcode', 'postname_fr',
  'postname_nl', 'street_id', 'streetname_de', 'streetname_fr', 'streetname_nl', 'region_code', 'status',
] as const;

/** One record of the register, by column name. */
export type RegisterRecord = Readonly<Record<(typeof REGISTER_COLUMNS)[number], string>>;

/** One source of CSV text: a file, or an entry of a zip archive, with the bytes on disk it reads. */
interface CsvSource {
  readonly name: string;
  readonly stream: Readable;
}

/** The CSV sources of `path`: the file itself (plain or gzipped) or the `.csv` entries of a zip archive. */
async function* sourcesOf(path: string, onBytes: BytesRead): AsyncGenerator<CsvSource> {
  const name = basename(path);
  if (/\.zip$/i.test(path)) {
    yield* zipCsvEntries(path, onBytes);
    return;
  }
  const file = createReadStream(path);
  file.on('data', (chunk) => onBytes(chunk.length));
  if (!/\.gz$/i.test(path)) {
    yield { name, stream: file };
    return;
  }
  const gunzip = createGunzip();
  file.on('error', (err) => gunzip.destroy(err));
  gunzip.on('close', () => file.destroy());
  yield { name, stream: file.pipe(gunzip) };
}

/** Splits CSV text into records, keeping state across chunks; `line` is the line the current record started on. */
class CsvSplitter {
  #field = '';
  #record: string[] = [];
  #quoted = false;
  /** After a closing quote: only a separator, a line end or another quote may follow. */
  #afterQuote = false;
  line = 1;
  #recordLine = 1;
  #fieldStarted = false;

  constructor(readonly file: string) {}

  /** Feeds `text`; calls `emit(record, line)` for each complete record. */
  push(text: string, emit: (record: string[], line: number) => void): void {
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (this.#quoted) {
        if (ch === '"') {
          this.#quoted = false;
          this.#afterQuote = true;
        } else {
          if (ch === '\n') this.line++;
          this.#field += ch;
        }
        continue;
      }
      if (this.#afterQuote) {
        this.#afterQuote = false;
        if (ch === '"') {
          this.#field += '"';
          this.#quoted = true;
          continue;
        }
        if (ch !== ',' && ch !== '\n' && ch !== '\r') throw new RegisterFileError(this.file, this.line, `unexpected ${JSON.stringify(ch)} after a closing quote`);
      }
      if (ch === '"') {
        if (this.#fieldStarted) throw new RegisterFileError(this.file, this.line, 'a quote inside an unquoted field');
        this.#quoted = true;
        this.#fieldStarted = true;
      } else if (ch === ',') {
        this.#endField();
      } else if (ch === '\n') {
        this.#endField();
        const record = this.#record;
        this.#record = [];
        if (!(record.length === 1 && record[0] === '')) emit(record, this.#recordLine);
        this.line++;
        this.#recordLine = this.line;
      } else if (ch !== '\r') {
        this.#field += ch;
        this.#fieldStarted = true;
      }
    }
  }

  #endField(): void {
    this.#record.push(this.#field);
    this.#field = '';
    this.#fieldStarted = false;
  }

  /** Ends the text: a last record without a line end is emitted; an open quote is an error. */
  end(emit: (record: string[], line: number) => void): void {
    if (this.#quoted) throw new RegisterFileError(this.file, this.#recordLine, 'a quoted field is not closed before the end of the file');
    if (this.#fieldStarted || this.#record.length > 0) {
      this.#endField();
      emit(this.#record, this.#recordLine);
      this.#record = [];
    }
  }
}

/** Checks the header record against the register's columns. */
function checkHeader(file: string, header: readonly string[]): void {
  const got = header.map((h, i) => (i === 0 ? h.replace(/^\uFEFF/, '') : h).trim());
  if (got.length !== REGISTER_COLUMNS.length || got.some((h, i) => h !== REGISTER_COLUMNS[i])) {
    const first = got.findIndex((h, i) => h !== REGISTER_COLUMNS[i]);
    const what = first < 0
      ? `${got.length} columns instead of ${REGISTER_COLUMNS.length}`
      : `column ${first + 1} is ${JSON.stringify(got[first] ?? '')}, not ${JSON.stringify(REGISTER_COLUMNS[first] ?? '')}`;
    throw new RegisterFileError(file, 1, `not a BeSt Address CSV header (${what}); expected ${REGISTER_COLUMNS.join(',')}`);
  }
}

/** A record with where it was read. */
export interface LocatedRecord {
  readonly record: RegisterRecord;
  readonly file: string;
  readonly line: number;
}

/**
 * The records of every register file in `paths`, in order, in batches (one per chunk read), each with its file name
 * and line. `onBytes` is told the bytes on disk consumed, for a progress bar.
 */
export async function* readRegister(paths: readonly string[], onBytes: BytesRead = () => {}): AsyncGenerator<LocatedRecord[]> {
  for (const path of paths) {
    for await (const source of sourcesOf(path, onBytes)) {
      const splitter = new CsvSplitter(source.name);
      const decoder = new TextDecoder('utf-8', { fatal: true });
      let header = true;
      let batch: LocatedRecord[] = [];
      const emit = (fields: string[], line: number) => {
        if (header) {
          checkHeader(source.name, fields);
          header = false;
          return;
        }
        if (fields.length !== REGISTER_COLUMNS.length) {
          throw new RegisterFileError(source.name, line, `${fields.length} fields instead of ${REGISTER_COLUMNS.length}`);
        }
        const record = Object.fromEntries(REGISTER_COLUMNS.map((c, i) => [c, fields[i]!])) as RegisterRecord;
        batch.push({ record, file: source.name, line });
      };
      const decode = (bytes?: Uint8Array): string => {
        try {
          return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true });
        } catch {
          // The line of the first byte that is not UTF-8: the lines before it in this chunk, after the ones read.
          const text = bytes === undefined ? '' : new TextDecoder('utf-8').decode(bytes);
          const at = text.indexOf('\uFFFD');
          const line = splitter.line + (at < 0 ? 0 : text.slice(0, at).split('\n').length - 1);
          throw new RegisterFileError(source.name, line, 'bytes that are not UTF-8 (the register files are UTF-8)');
        }
      };
      try {
        for await (const chunk of source.stream) {
          splitter.push(decode(chunk as Uint8Array), emit);
          if (batch.length > 0) {
            yield batch;
            batch = [];
          }
        }
      } catch (err) {
        source.stream.destroy();
        if (err instanceof RegisterFileError) throw err;
        const e = err as NodeJS.ErrnoException;
        const reason = e.code === 'Z_BUF_ERROR' || /unexpected end/i.test(e.message)
          ? 'the compressed data end early (a truncated download?)'
          : `${e.code === 'ENOENT' ? 'no such file' : e.message}`;
        throw new RegisterFileError(source.name, splitter.line, reason);
      }
      splitter.push(decode(), emit);
      splitter.end(emit);
      if (header) throw new RegisterFileError(source.name, 1, 'the file is empty (no header)');
      if (batch.length > 0) yield batch;
    }
  }
}
