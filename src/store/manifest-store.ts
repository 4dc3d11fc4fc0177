/**
 * A chunk store checked against the dataset's chunk manifest: a wrapper over `get`, as zarrita's stores compose. Every
 * key the manifest lists must exist with its recorded size and CRC-32, so zarrita never reads a missing chunk as fill
 * values. Keys the manifest does not list (metadata) pass through unchanged.
 */
import type { AbsolutePath, AsyncReadable, GetOptions } from '@zarrita/storage';
import { DamagedDataError, DatasetError } from '../errors.js';
import { verifyChunk, type ChunkManifest } from './chunk-manifest.js';
import type { DataLocation } from './data-location.js';

/** How one stored file is read (zarrita's `GetOptions`, plus a buffer to read into). */
export interface KeyReadOptions extends GetOptions {
  /**
   * Gives the buffer to read into, at least `size` bytes (a caller's reusable buffer; fresh memory costs a page fault
   * per 4 KiB touched). The bytes returned are a view of it, valid until the caller reuses it.
   */
  readonly buffer?: (size: number) => Uint8Array;
}

/** A store whose `get` returns a missing key as undefined (ChunkFileStore). */
export interface KeyStore {
  get(key: AbsolutePath, options?: KeyReadOptions): Promise<Uint8Array | undefined>;
}

/** `inner` with every manifest-listed chunk verified on read; throws `DamagedDataError` naming dataset and chunk. */
export class ManifestStore implements AsyncReadable {
  readonly #inner: KeyStore;
  readonly #manifest: ChunkManifest;
  readonly #dataset: string;
  readonly #location: DataLocation;

  /** `location` is the store's (data-location.ts): where damage is reported, and whether a failed read is damage. */
  constructor(inner: KeyStore, manifest: ChunkManifest, dataset: string, location: DataLocation) {
    this.#inner = inner;
    this.#manifest = manifest;
    this.#dataset = dataset;
    this.#location = location;
  }

  async get(key: AbsolutePath, options?: KeyReadOptions): Promise<Uint8Array | undefined> {
    const name = key.slice(1);
    let bytes: Uint8Array | undefined;
    try {
      bytes = await this.#inner.get(key, options);
    } catch (cause) {
      // Absence is `undefined`; anything else (a directory in place of the file, permissions) names the chunk too.
      if (this.#manifest.entry(name) === undefined) throw cause;
      const code = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message;
      // Over HTTP a failed read says nothing about the stored data (a server or network fault): not damage.
      if (!this.#location.failureIsDamage) {
        throw new DatasetError(`Dataset '${this.#dataset}': chunk ${name} cannot be read from ${this.#location.href} (${code}).`, { cause });
      }
      throw new DamagedDataError(`Dataset '${this.#dataset}' is damaged: chunk ${name} cannot be read (${code}).`, {
        dataset: this.#dataset, path: this.#location.join(name).href, cause,
      });
    }
    return verifyChunk(this.#manifest, name, bytes, this.#dataset, this.#location.href);
  }
}
