/**
 * A chunk store checked against the dataset's chunk manifest: a wrapper over `get`, as zarrita's stores compose. Every
 * key the manifest lists must exist with its recorded size and CRC-32, so zarrita never reads a missing chunk as fill
 * values. Keys the manifest does not list (metadata) pass through unchanged.
 */
import type { AbsolutePath, AsyncReadable } from '@zarrita/storage';
import { verifyChunk, type ChunkManifest } from './chunk-manifest.js';

/** A store whose `get` returns a missing key as undefined (ChunkFileStore). */
export interface KeyStore {
  get(key: AbsolutePath): Promise<Uint8Array | undefined>;
}

/** `inner` with every manifest-listed chunk verified on read; throws `DamagedDataError` naming dataset and chunk. */
export class ManifestStore implements AsyncReadable {
  readonly #inner: KeyStore;
  readonly #manifest: ChunkManifest;
  readonly #dataset: string;
  readonly #dir: string;

  constructor(inner: KeyStore, manifest: ChunkManifest, dataset: string, dir: string) {
    this.#inner = inner;
    this.#manifest = manifest;
    this.#dataset = dataset;
    this.#dir = dir;
  }

  async get(key: AbsolutePath): Promise<Uint8Array | undefined> {
    return verifyChunk(this.#manifest, key.slice(1), await this.#inner.get(key), this.#dataset, this.#dir);
  }
}
