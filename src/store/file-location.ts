/**
 * The file back end of the storage seam (data-location.ts): a directory or file on a local or mounted file system.
 * Absence is ENOENT (and ENOTDIR, a path through a file, where asking what is there); a read that fails otherwise is
 * damage of the stored data. Chunk reads go through `ChunkFileStore` (one read per file, or blocking reads in compute
 * threads); ranges are read with positioned blocking reads over one descriptor, closed with the source or, failing
 * that, when the source is garbage-collected.
 */
import { closeSync, fstatSync, openSync, readFile as readFileCallback, readSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join, resolve } from 'node:path';
import { ChunkFileStore } from './chunk-file-store.js';
import type { DataLocation, DataLocationBackEnd, KeyStoreOptions, LocationState, RangeSource } from './data-location.js';
import type { KeyStore } from './manifest-store.js';

/**
 * Reads a whole file through the callback API: the promise API's `readFile` opens a `FileHandle` (an event emitter
 * with promises of its own at every step), several times the garbage per read, and the map's annual tiles read a few
 * small files each.
 */
const readWholeFile = promisify(readFileCallback);

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code;
const isAbsence = (err: unknown) => codeOf(err) === 'ENOENT' || codeOf(err) === 'ENOTDIR';

/** Descriptors of range sources no longer referenced (a chunk index dropped without closing). */
const descriptors = new FinalizationRegistry<number>((fd) => closeSync(fd));

/** A path on the file system. */
class FileLocation implements DataLocation {
  readonly failureIsDamage = true;
  readonly absentAs = 'ENOENT';

  constructor(readonly href: string) {}

  join(...parts: string[]): DataLocation {
    return new FileLocation(join(this.href, ...parts));
  }

  absolute(): DataLocation {
    return new FileLocation(resolve(this.href));
  }

  async read(): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await readWholeFile(this.href));
    } catch (err) {
      if (codeOf(err) === 'ENOENT') return undefined;
      throw err;
    }
  }

  async state(): Promise<LocationState> {
    try {
      return (await stat(this.href)).isDirectory() ? 'directory' : 'file';
    } catch (err) {
      if (isAbsence(err)) return 'absent';
      throw err;
    }
  }

  async exists(): Promise<boolean> {
    return (await this.state()) !== 'absent';
  }

  async list(): Promise<string[]> {
    return (await readdir(this.href)).sort();
  }

  keyStore(options: KeyStoreOptions = {}): KeyStore {
    return new ChunkFileStore(this.href, options);
  }

  async openRanges(): Promise<RangeSource | undefined> {
    let fd: number;
    try {
      fd = openSync(this.href, 'r');
    } catch (err) {
      if (codeOf(err) === 'ENOENT') return undefined;
      throw err;
    }
    let open = true;
    const source: RangeSource = {
      size: fstatSync(fd).size,
      read(offset, length) {
        const out = new Uint8Array(length);
        let filled = 0;
        while (filled < length) {
          const read = readSync(fd, out, filled, length - filled, offset + filled);
          if (read === 0) break;
          filled += read;
        }
        return out.subarray(0, filled);
      },
      close() {
        if (!open) return;
        open = false;
        descriptors.unregister(source);
        closeSync(fd);
      },
    };
    descriptors.register(source, fd, source);
    return source;
  }
}

/** Every string that is not claimed by another back end is a path. */
export const FILE_LOCATIONS: DataLocationBackEnd = Object.freeze({
  claims: () => true,
  open: (location: string): DataLocation => new FileLocation(location),
});
