/**
 * How long opening a store's chunk index takes and what it costs in memory, for the scale ladder's `index` figures.
 * It opens the store as every process and compute thread does (`openStore`: metadata and the chunk index, either
 * form: the binary index or an older JSON manifest) and then counts the index's entries.
 */
import { manifestEntries } from '../src/store/chunk-manifest.js';
import { openStore } from '../src/store/store-open.js';
import { residentMb } from './scale-memory.js';

/** One index open: entries, wall milliseconds, resident memory it added (MiB). */
export interface IndexOpen {
  readonly entries: number;
  readonly open_ms: number;
  readonly open_rss_mb: number;
}

/** Opens the store at `storeDir` once in this process (call it in a fresh process for a clean memory figure). */
export async function measureIndexOpen(storeDir: string): Promise<IndexOpen> {
  const before = residentMb();
  const t0 = performance.now();
  const store = await openStore(storeDir);
  const ms = performance.now() - t0;
  const after = residentMb();
  const entries = store.manifest === undefined ? 0 : manifestEntries(store.manifest).length;
  return { entries, open_ms: ms, open_rss_mb: after - before };
}
