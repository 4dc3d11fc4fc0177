/**
 * A fixed allow-list of files served over HTTP: the regular files directly inside one folder whose extension has a
 * known media type, listed once when the folder is opened. A request names a file by its exact name; anything else
 * (another folder, `..`, an encoded separator, a hidden or unlisted file) is simply not in the list, so no path is
 * ever built from client input. Small files are read once and kept; large ones (source maps) are read per request.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';

/** Media types of the files a static folder serves, by extension; files of other extensions are not served. */
const MEDIA_TYPES: Readonly<Record<string, string>> = Object.freeze({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
});

/** One file as served: its bytes, media type and a strong entity tag over the bytes. */
export interface StaticFile {
  readonly body: Buffer;
  readonly type: string;
  readonly etag: string;
}

/** Rewrites a text file's content before it is served (e.g. to put in a versioned path); identity when absent. */
export type TextTransform = (name: string, text: string) => string;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const KEEP_BYTES = 2 * 1024 * 1024;
const TEXT = /^(text\/|application\/json)/;

/** The files of one folder, served by exact name. */
export class StaticFolder {
  readonly #dir: string;
  readonly #names: ReadonlySet<string>;
  readonly #transform: TextTransform | undefined;
  readonly #kept = new Map<string, Promise<StaticFile>>();

  private constructor(dir: string, names: ReadonlySet<string>, transform: TextTransform | undefined) {
    this.#dir = dir;
    this.#names = names;
    this.#transform = transform;
  }

  /** Lists the servable files of `dir` (fails naming the folder when it cannot be read). */
  static async open(dir: string, transform?: TextTransform): Promise<StaticFolder> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      throw new Error(`Cannot list the static folder ${dir}: ${(err as Error).message}`, { cause: err });
    }
    const names = entries.filter((e) => e.isFile() && NAME.test(e.name) && MEDIA_TYPES[extname(e.name)] !== undefined).map((e) => e.name);
    return new StaticFolder(dir, new Set(names), transform);
  }

  /** The names served, sorted. */
  names(): string[] {
    return [...this.#names].sort();
  }

  /** Whether `name` is one of the files served. */
  has(name: string): boolean {
    return this.#names.has(name);
  }

  /** The file called exactly `name`, or undefined when it is not served. */
  async get(name: string): Promise<StaticFile | undefined> {
    if (!this.#names.has(name)) return undefined;
    const kept = this.#kept.get(name);
    if (kept !== undefined) return kept;
    const loading = this.#load(name);
    this.#kept.set(name, loading);
    const file = await loading.catch((err: unknown) => {
      this.#kept.delete(name);
      throw err;
    });
    if (file.body.length > KEEP_BYTES) this.#kept.delete(name);
    return file;
  }

  async #load(name: string): Promise<StaticFile> {
    const type = MEDIA_TYPES[extname(name)]!;
    let body = await readFile(join(this.#dir, name));
    if (this.#transform !== undefined && TEXT.test(type)) body = Buffer.from(this.#transform(name, body.toString('utf8')), 'utf8');
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
    return { body, type, etag };
  }
}
