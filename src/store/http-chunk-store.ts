/**
 * The chunk store over HTTP: the HTTP counterpart of ChunkFileStore, for datasets served as static files. A key maps to
 * `${root}${key}` (keys start with `/`); 404 is a missing key (undefined), as ENOENT is for files, so the chunk
 * manifest check above it tells a missing chunk from a fill value exactly as for a directory.
 */
import type { AbsolutePath } from '@zarrita/storage';
import { fetchBytes } from './data-location.js';
import type { KeyStore } from './manifest-store.js';

/** A read-only key store under a base URL. */
export class HttpChunkStore implements KeyStore {
  readonly #root: string;

  constructor(root: string) {
    this.#root = root.replace(/\/+$/, '');
  }

  get(key: AbsolutePath): Promise<Uint8Array | undefined> {
    return fetchBytes(`${this.#root}${key}`);
  }
}
