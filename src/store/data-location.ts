/**
 * The storage seam: where datasets are read from. A location string (a directory, or a base URL over HTTP(S): a static
 * file server, or an object store's public or presigned GETs, serving the same files under the same relative paths —
 * `${url}/${dataset}/.zmetadata`, `${url}/${dataset}/no2/0/3/4`) is parsed once, by `dataLocation`, into a
 * `DataLocation`; the readers (store opening, chunk manifest and index, chunk reads, dataset listing) receive that
 * and never ask which back end it is. Only reading goes through the seam; writing (generation, import, precompute
 * output) needs a directory.
 *
 * "Absent" is a value (`undefined`, `false`, `'absent'`), never an exception; any other failure throws an error carrying
 * a `code` (an errno code, or `HTTP <status>`) so the callers' messages name it.
 *
 * A new back end is one implementation of `DataLocation` (file-location.ts and http-location.ts are the two) and one
 * line in `BACK_ENDS` below; test/store/data-location.test.ts runs the contract suite against each.
 */
import { FILE_LOCATIONS } from './file-location.js';
import { HTTP_LOCATIONS } from './http-location.js';
import type { KeyStore } from './manifest-store.js';

/** What a location holds, as far as its back end can tell without reading a file. */
export type LocationState = 'directory' | 'file' | 'absent' | 'unknown';

/** How a key store over a location reads (back ends that cannot use an option ignore it). */
export interface KeyStoreOptions {
  /** Read with blocking calls (compute worker threads only; never on a server's main thread). */
  readonly sync?: boolean;
  /** The size a key's stored bytes should have (the chunk manifest's), when known: lets a back end read in one go. */
  readonly expectedSize?: (key: string) => number | undefined;
}

/** Stored bytes read at any offset, synchronously (the chunk index's entries, read a block at a time). */
export interface RangeSource {
  /** The stored size, bytes. */
  readonly size: number;
  /** Up to `length` bytes from `offset` (fewer at the end). */
  read(offset: number, length: number): Uint8Array;
  /** Lets go of what the source holds (also done when it is garbage-collected). */
  close(): void;
}

/** A place datasets are read from: a directory or file, or a URL. */
export interface DataLocation {
  /** The location as a string: a path as given, or a URL without a trailing slash. What messages name. */
  readonly href: string;
  /**
   * Whether a read that fails other than by absence says the stored data are damaged (a file: the disk holds what it
   * holds), rather than that the way to them failed (HTTP: a server or network fault says nothing about the data).
   */
  readonly failureIsDamage: boolean;
  /** How this back end says "absent" in messages (`ENOENT`, `HTTP 404`). */
  readonly absentAs: string;
  /** The location of `parts` below this one. */
  join(...parts: string[]): DataLocation;
  /** The same place named independently of the working directory (a path resolved): what crosses threads and NATS. */
  absolute(): DataLocation;
  /** The bytes stored here; undefined when absent. */
  read(): Promise<Uint8Array | undefined>;
  /** What is here; `unknown` where the back end cannot tell without reading a file (HTTP has no directories). */
  state(): Promise<LocationState>;
  /** Whether anything is stored here (a file or directory; over HTTP, a URL that answers). */
  exists(): Promise<boolean>;
  /** The names directly below, sorted; undefined where the back end cannot list (HTTP). */
  list(): Promise<string[] | undefined>;
  /** The files below as a key store: `/no2/0/3/5` → the bytes of `no2/0/3/5`, undefined when absent. */
  keyStore(options?: KeyStoreOptions): KeyStore;
  /** The bytes stored here for reads at any offset; undefined when absent. */
  openRanges(): Promise<RangeSource | undefined>;
}

/** One kind of location: which strings it claims, and how it opens them. */
export interface DataLocationBackEnd {
  /** Whether `location` is one of this back end's. */
  claims(location: string): boolean;
  /** The location `location` names (a path as given, a URL without its trailing slashes). */
  open(location: string): DataLocation;
}

/** The back ends, asked in order; the first that claims a string opens it. Files come last: any string is a path. */
const BACK_ENDS: readonly DataLocationBackEnd[] = [HTTP_LOCATIONS, FILE_LOCATIONS];

/** The location a string names (an opened location is returned as it is): where file or URL is decided, once. */
export function dataLocation(location: string | DataLocation): DataLocation {
  if (typeof location !== 'string') return location;
  return BACK_ENDS.find((backEnd) => backEnd.claims(location))!.open(location);
}

/** `location` and relative `parts` joined: URL segments for a URL, a path for a directory. */
export function locationJoin(location: string | DataLocation, ...parts: string[]): string {
  return dataLocation(location).join(...parts).href;
}

/** The text at `location` (file or URL), or undefined when it is absent. */
export async function readLocationText(location: string | DataLocation): Promise<string | undefined> {
  const bytes = await dataLocation(location).read();
  return bytes === undefined ? undefined : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
