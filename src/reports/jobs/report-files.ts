/**
 * The report files (`<id>.html`, `<id>.pdf`) in the configured reports directory. A file appears under its final
 * name only complete: it is written to a hidden temporary name, flushed to disk (fsync), renamed, and the directory
 * flushed too, so a process killed at any moment leaves either no file or the whole file, never part of one.
 * Temporaries a killed process left behind are removed when the store opens.
 */
import type { Readable } from 'node:stream';
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * The formats of job files: a report's HTML and PDF, and a batch job's results as GeoJSON and CSV (src/batch/), kept
 * and deleted with their job alike.
 */
export const REPORT_FORMATS = ['html', 'pdf', 'geojson', 'csv'] as const;
/** One job file format. */
export type ReportFormat = (typeof REPORT_FORMATS)[number];
/** The formats of a report's own files. */
export type ReportDocumentFormat = Extract<ReportFormat, 'html' | 'pdf'>;

/** An opened report file: its bytes as a stream and its size. */
export interface OpenedReportFile {
  readonly stream: Readable;
  readonly size: number;
}

/** Where report files are kept (a directory here; an object store in a shared back end). */
export interface ReportFileStore {
  /** Stores the file of a job in a format, atomically (replacing an earlier one whole). */
  write(id: string, format: ReportFormat, bytes: Uint8Array): Promise<void>;
  /** The file, or undefined when it does not exist. */
  open(id: string, format: ReportFormat): Promise<OpenedReportFile | undefined>;
  /** Deletes every file of a job; files already gone are fine. */
  remove(id: string): Promise<void>;
}

/** Temporary names start with a dot and end with this, so they are never taken for a report. */
const TMP_SUFFIX = '.tmp';
/** A job id (UUID v4): nothing else becomes part of a path. */
const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/** Report files in one local directory. */
export class DirectoryReportFiles implements ReportFileStore {
  readonly dir: string;

  private constructor(dir: string) {
    this.dir = dir;
  }

  /** Opens (creating) the directory and removes temporaries left by a process that was killed mid-write. */
  static async open(dir: string): Promise<DirectoryReportFiles> {
    const abs = resolve(dir);
    await mkdir(abs, { recursive: true });
    for (const name of await readdir(abs)) {
      if (name.startsWith('.') && name.endsWith(TMP_SUFFIX)) await rm(join(abs, name), { force: true });
    }
    return new DirectoryReportFiles(abs);
  }

  /** The final path of a job's file. */
  path(id: string, format: ReportFormat): string {
    if (!JOB_ID.test(id)) throw new Error(`Not a job id: ${JSON.stringify(id)}`);
    return join(this.dir, `${id}.${format}`);
  }

  async write(id: string, format: ReportFormat, bytes: Uint8Array): Promise<void> {
    const target = this.path(id, format);
    const tmp = join(this.dir, `.${id}.${format}.${process.pid}-${randomBytes(4).toString('hex')}${TMP_SUFFIX}`);
    try {
      const file = await open(tmp, 'wx', 0o640);
      try {
        await file.writeFile(bytes);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    await this.#syncDir();
  }

  async open(id: string, format: ReportFormat): Promise<OpenedReportFile | undefined> {
    const path = this.path(id, format);
    // Open first, then ask the open file its size: a file deleted in between still reads whole.
    let handle: FileHandle;
    try {
      handle = await open(path, 'r');
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
    let size: number;
    try {
      size = (await handle.stat()).size;
    } catch (err) {
      await handle.close();
      throw err;
    }
    return { stream: handle.createReadStream({ autoClose: true }), size };
  }

  async remove(id: string): Promise<void> {
    for (const format of REPORT_FORMATS) await rm(this.path(id, format), { force: true });
  }

  /** Whether the final file exists (tests, the sweeper's checks). */
  async exists(id: string, format: ReportFormat): Promise<boolean> {
    try {
      await stat(this.path(id, format));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  /** Flushes the directory entry of the rename, so the file's name survives a power loss too. */
  async #syncDir(): Promise<void> {
    const dir = await open(this.dir, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}
