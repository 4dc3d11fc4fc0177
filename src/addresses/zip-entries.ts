/**
 * The `.csv` entries of a zip archive as streams (the register is published zipped), read with yauzl: the central
 * directory first, then each entry inflated as it is read, its CRC-32 checked at its end. A damaged or truncated
 * archive is a `RegisterFileError` naming it.
 */
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { RegisterFileError, type BytesRead } from './register-file-error.js';

/** One entry opened for reading. */
export interface ZipCsvEntry {
  readonly name: string;
  readonly stream: Readable;
}

/** Opens `path` lazily (entries one after another, each read to its end before the next opens). */
export async function* zipCsvEntries(path: string, onBytes: BytesRead): AsyncGenerator<ZipCsvEntry> {
  const archive = basename(path);
  const fail = (err: Error) => new RegisterFileError(archive, 0, `not a readable zip archive (${err.message})`);
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (err, file) => (err ? reject(fail(err)) : resolve(file))));
  try {
    const entries: yauzl.Entry[] = [];
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        entries.push(entry);
        zip.readEntry();
      });
      zip.once('end', () => resolve());
      zip.once('error', (err: Error) => reject(fail(err)));
      zip.readEntry();
    });
    // Not the resource forks macOS adds to archives it makes (`__MACOSX/._name.csv`).
    const csvs = entries.filter((e) => /\.csv$/i.test(e.fileName) && !e.fileName.endsWith('/')
      && !e.fileName.startsWith('__MACOSX/') && !basename(e.fileName).startsWith('._'));
    if (csvs.length === 0) throw new RegisterFileError(archive, 0, 'the archive holds no .csv file');
    for (const entry of csvs) {
      const stream = await new Promise<Readable>((resolve, reject) =>
        zip.openReadStream(entry, (err, s) => (err ? reject(fail(err)) : resolve(s))));
      // Progress in bytes of the archive: the entry's compressed share, as its text is consumed.
      const ratio = entry.compressedSize / Math.max(1, entry.uncompressedSize);
      stream.on('data', (chunk: Buffer) => onBytes(chunk.length * ratio));
      yield { name: `${archive}:${basename(entry.fileName)}`, stream };
    }
  } finally {
    zip.close();
  }
}
