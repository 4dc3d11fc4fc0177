/**
 * Transactional updates of an existing dataset: new chunk files are staged in a hidden directory inside the store
 * (same filesystem), then each is renamed over its target (an atomic replace, so readers never see a missing chunk);
 * the chunk manifest gets the new chunks' entries (only the index blocks that hold them are rewritten) and the group attributes a new `content_version` and a `history`
 * line. If anything fails before the metadata is written, the replaced files and the manifest are restored (from hard
 * links taken before the renames) and the store is as it was.
 */
import { link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { DamagedDataError, DatasetError } from '../errors.js';
import { siblingPath, writeFileAtomic } from './atomic-dir.js';
import { chunkEntry, MANIFEST_FILE, readManifest, updateManifest, type ManifestEntry } from './chunk-manifest.js';
import { removeTree } from './remove-tree.js';

/** A pending update of one store. */
export interface StoreUpdate {
  /** The store's consolidated metadata (`.zmetadata` → `metadata`), as read when the update began. */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Stages the new content of a store file (e.g. `outdoor/0/0`); nothing changes in the store yet. */
  stage(key: string, bytes: Uint8Array): Promise<void>;
  /**
   * Replaces the staged files, bumps `content_version`, appends `history`, sets the group attributes in `attrs` (what
   * the change records of itself, such as `imports`); returns the new content version. Stored
   * aggregates no longer sum the store's chunks after that, so the new manifest drops them (queries then decode every
   * chunk) until they are written again (`aggregateLevels` says which were there).
   */
  commit(historyLine: string, attrs?: Readonly<Record<string, unknown>>): Promise<string>;
  /** The levels of the stored aggregates the store had when the update began (empty: none). */
  readonly aggregateLevels: readonly number[];
  /** Drops everything staged. */
  abort(): Promise<void>;
}

/** Next content version: a trailing number is incremented (`v3` → `v4`, `m1-ab12` → `m1-ab13`), else `.1` is appended. */
export function bumpContentVersion(version: string): string {
  const m = /^(.*?)(\d+)$/.exec(version);
  return m ? `${m[1]}${String(Number(m[2]) + 1).padStart(m[2].length, '0')}` : `${version}.1`;
}

async function readMetadata(storeDir: string): Promise<Record<string, unknown>> {
  try {
    const doc = JSON.parse(await readFile(join(storeDir, '.zmetadata'), 'utf8')) as { metadata?: Record<string, unknown> };
    if (typeof doc.metadata !== 'object' || doc.metadata === null) throw new Error("no 'metadata' object");
    return doc.metadata;
  } catch (cause) {
    throw new DatasetError(`${storeDir}/.zmetadata cannot be read: ${(cause as Error).message}`, { cause });
  }
}

/** Starts an update of the store at `storeDir`; a store without a chunk manifest is refused (`svc data verify`). */
export async function beginStoreUpdate(storeDir: string): Promise<StoreUpdate> {
  const metadata = await readMetadata(storeDir);
  const dataset = basename(storeDir);
  const manifest = await readManifest(storeDir, dataset);
  if (manifest === undefined) {
    throw new DamagedDataError(`Dataset '${dataset}' is damaged: it has no chunk manifest (${MANIFEST_FILE}).`, {
      dataset, path: join(storeDir, MANIFEST_FILE),
    });
  }
  const staging = siblingPath(join(storeDir, 'update'), 'staging');
  await mkdir(join(staging, 'new'), { recursive: true });
  const staged: string[] = [];
  const entries = new Map<string, ManifestEntry>();
  let open = true;

  async function replaceFiles(): Promise<() => Promise<void>> {
    const undo: (() => Promise<void>)[] = [];
    const rollback = async () => {
      for (const step of undo.reverse()) await step();
    };
    try {
      for (const [i, key] of staged.entries()) {
        const target = join(storeDir, key);
        const backup = join(staging, 'old', String(i));
        await mkdir(dirname(backup), { recursive: true });
        const hadOld = await link(target, backup).then(() => true, (err: NodeJS.ErrnoException) => {
          if (err.code === 'ENOENT') return false;
          throw err;
        });
        await mkdir(dirname(target), { recursive: true });
        await rename(join(staging, 'new', key), target);
        undo.push(hadOld ? () => rename(backup, target) : () => rm(target, { force: true }));
      }
    } catch (err) {
      await rollback();
      throw err;
    }
    return rollback;
  }

  return {
    aggregateLevels: manifest.aggregates?.levels ?? [],
    metadata,
    async stage(key, bytes) {
      if (!open) throw new DatasetError('The store update is already finished.');
      const path = join(staging, 'new', key);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, bytes);
      staged.push(key);
      // Chunks get new manifest entries; other files (none today) are not listed.
      if (manifest.entry(key) !== undefined) entries.set(key, chunkEntry(key, bytes));
    },
    async commit(historyLine, changed = {}) {
      if (!open) throw new DatasetError('The store update is already finished.');
      open = false;
      const attrs = { ...(metadata['.zattrs'] as Record<string, unknown>), ...changed };
      const version = bumpContentVersion(String(attrs.content_version ?? '0'));
      attrs.content_version = version;
      const history = typeof attrs.history === 'string' && attrs.history !== '' ? `${attrs.history}\n` : '';
      attrs.history = `${history}${new Date().toISOString()}: ${historyLine}`;
      const oldAttrs = await readFile(join(storeDir, '.zattrs'));
      const oldManifest = await readFile(join(storeDir, MANIFEST_FILE));
      let cleanup = async () => undefined as void;
      try {
        const rollback = await replaceFiles();
        try {
          // Only the index blocks holding replaced chunks are rewritten; the stored aggregates are dropped.
          cleanup = await updateManifest(storeDir, manifest, { contentVersion: version, changed: entries.values() }, metadata);
          await writeFileAtomic(join(storeDir, '.zattrs'), JSON.stringify(attrs, null, 2));
          const consolidated = { metadata: { ...metadata, '.zattrs': attrs }, zarr_consolidated_format: 1 };
          await writeFileAtomic(join(storeDir, '.zmetadata'), JSON.stringify(consolidated, null, 2));
        } catch (err) {
          await writeFileAtomic(join(storeDir, '.zattrs'), oldAttrs);
          await writeFileAtomic(join(storeDir, MANIFEST_FILE), oldManifest);
          await rollback();
          throw err;
        }
      } finally {
        await removeTree(staging);
      }
      await cleanup();
      return version;
    },
    async abort() {
      open = false;
      await removeTree(staging);
    },
  };
}
