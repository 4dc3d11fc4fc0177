/**
 * zarrita's FileSystemStore with a cheaper `get`. `fs.promises.readFile` reads in 512 KiB pieces, each a round trip
 * through libuv's thread pool, which costs as much as decoding a whole-year chunk; here a file is read with one
 * `read` into an exactly sized buffer (`npm run bench -- data` shows the difference). Compute threads, where blocking
 * is harmless, can read synchronously and skip the thread pool altogether.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import FileSystemStore from '@zarrita/storage/fs';
import type { KeyReadOptions } from './manifest-store.js';

type Key = Parameters<FileSystemStore['get']>[0];

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/** Options of a `ChunkFileStore`. */
export interface ChunkFileStoreOptions {
  /** Read with blocking calls (for worker threads; never on a server's main thread). */
  readonly sync?: boolean;
  /**
   * The size a key's file should have (the chunk manifest's): asynchronous reads then skip the `stat` and leave the
   * `close` behind them, two trips through libuv's thread pool instead of four. One byte more is asked for, so a file
   * that grew still shows its true size to the manifest check.
   */
  readonly expectedSize?: (key: string) => number | undefined;
}

/** A FileSystemStore whose `get` returns a missing key as undefined and reads present ones in one call. */
export class ChunkFileStore extends FileSystemStore {
  readonly #sync: boolean;
  readonly #expectedSize: ((key: string) => number | undefined) | undefined;

  constructor(root: string, options: ChunkFileStoreOptions = {}) {
    super(root);
    this.#sync = options.sync === true;
    this.#expectedSize = options.expectedSize;
  }

  override async get(key: Key, options?: KeyReadOptions): Promise<Uint8Array | undefined> {
    const path = join(this.root, key.slice(1));
    const expected = this.#expectedSize?.(key.slice(1));
    if (this.#sync && expected !== undefined) return readExpectedSync(path, expected, options?.buffer);
    if (this.#sync) {
      try {
        const buf = readFileSync(path);
        return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
    }
    const handle = await open(path, 'r').catch((err: unknown) => {
      if (isMissing(err)) return undefined;
      throw err;
    });
    if (!handle) return undefined;
    if (expected !== undefined) return readExpected(handle, expected, options?.buffer);
    try {
      const { size } = await handle.stat();
      // A dedicated zero-offset buffer, so codecs can lay typed views of any element size over it.
      const bytes = new Uint8Array(Buffer.allocUnsafeSlow(size).buffer, 0, size);
      let filled = 0;
      while (filled < size) {
        const { bytesRead } = await handle.read(bytes, filled, size - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return filled === size ? bytes : bytes.subarray(0, filled);
    } finally {
      await handle.close();
    }
  }
}

/** A buffer of `size` bytes: the caller's, or fresh memory with its own zero-offset ArrayBuffer. */
function bufferOf(size: number, provide: ((size: number) => Uint8Array) | undefined): Uint8Array {
  return provide ? provide(size).subarray(0, size) : new Uint8Array(Buffer.allocUnsafeSlow(size).buffer, 0, size);
}

/** Reads up to `expected` + 1 bytes with blocking calls: one open, one read, one close. */
function readExpectedSync(path: string, expected: number, provide?: (size: number) => Uint8Array): Uint8Array | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
  try {
    const bytes = bufferOf(expected + 1, provide);
    let filled = 0;
    while (filled < bytes.length) {
      const read = readSync(fd, bytes, filled, bytes.length - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    return bytes.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}

/** Reads up to `expected` + 1 bytes from offset 0 and closes the file without waiting for it. */
async function readExpected(handle: FileHandle, expected: number, provide?: (size: number) => Uint8Array): Promise<Uint8Array> {
  try {
    const bytes = bufferOf(expected + 1, provide);
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return bytes.subarray(0, filled);
  } finally {
    handle.close().catch(() => undefined);
  }
}
