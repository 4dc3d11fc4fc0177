/**
 * An append-only temporary file: the place a streaming writer puts bytes whose final position is not known yet (the
 * tiles of a COG level before the IFDs are laid out, the tile contents of a PMTiles archive before its directory).
 * Memory stays at one copy buffer whatever the file grows to; the file is removed by `remove()`, which callers run in
 * a `finally`.
 */
import { open, rm, type FileHandle } from 'node:fs/promises';
import { siblingPath } from './atomic-dir.js';

/** Bytes copied per read when a spool is poured into another file. */
const COPY_BYTES = 1 << 20;

/** An open spool. */
export interface SpoolFile {
  /** Bytes appended so far. */
  readonly size: number;
  /** Appends `bytes`; resolves to the offset they start at. */
  append(bytes: Uint8Array): Promise<number>;
  /** The `length` bytes at `offset`, read into `into` (its first `length` bytes) when given, else a new array. */
  read(offset: number, length: number, into?: Uint8Array): Promise<Uint8Array>;
  /** Copies the whole spool to `out` at `position`, in bounded reads. */
  pourInto(out: FileHandle, position: number): Promise<void>;
  /** Closes and deletes the file (safe to call twice). */
  remove(): Promise<void>;
}

/** Creates a spool beside `near` (a hidden sibling, so it lies on the target's filesystem and is found if left). */
export async function createSpool(near: string, tag: string): Promise<SpoolFile> {
  const path = siblingPath(near, tag);
  const handle = await open(path, 'w+');
  let size = 0;
  let closed = false;
  return {
    get size() {
      return size;
    },
    async append(bytes) {
      const at = size;
      let done = 0;
      while (done < bytes.byteLength) {
        const { bytesWritten } = await handle.write(bytes, done, bytes.byteLength - done, at + done);
        done += bytesWritten;
      }
      size += bytes.byteLength;
      return at;
    },
    async read(offset, length, into) {
      if (into !== undefined && into.byteLength < length) throw new RangeError(`${length} bytes do not fit a buffer of ${into.byteLength}.`);
      const bytes = into === undefined ? new Uint8Array(length) : into.subarray(0, length);
      for (let done = 0; done < length;) {
        const { bytesRead } = await handle.read(bytes, done, length - done, offset + done);
        if (bytesRead === 0) throw new Error(`The spool ${path} ended at ${offset + done} of ${size} bytes.`);
        done += bytesRead;
      }
      return bytes;
    },
    async pourInto(out, position) {
      const buffer = new Uint8Array(Math.min(COPY_BYTES, Math.max(1, size)));
      for (let at = 0; at < size;) {
        const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.byteLength, size - at), at);
        if (bytesRead === 0) throw new Error(`The spool ${path} ended at ${at} of ${size} bytes.`);
        let written = 0;
        while (written < bytesRead) {
          const w = await out.write(buffer, written, bytesRead - written, position + at + written);
          written += w.bytesWritten;
        }
        at += bytesRead;
      }
    },
    async remove() {
      if (!closed) {
        closed = true;
        await handle.close();
      }
      await rm(path, { force: true });
    },
  };
}
