/**
 * The geocoder over the official address register (BeSt Address), offline: the address index a node finds in its data
 * directory (`svc addresses import` writes it) answers every street- and address-level query (register-search.ts),
 * and the embedded gazetteer only the area-level ones (municipality centres, places abroad), which the register does
 * not hold. Its hundred hand-typed streets are not used: with the register, an address is the register's or none.
 */
import { existsSync } from 'node:fs';
import { openSqliteFile, type Database } from '../db/database.js';
import type { Gazetteer, GeocodeHit } from '../geocode/gazetteer.js';
import type { Geocoder } from '../geocode/geocoder.js';
import { addressIndexPath, indexSummary, type IndexSummary } from './register-index.js';
import { RegisterSearch } from './register-search.js';

/** An open address register and the geocoder answering from it. */
export interface AddressRegister {
  readonly geocoder: Geocoder;
  readonly summary: IndexSummary;
  close(): void;
}

const COLLATOR = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * Opens the address index of `dataDir` (read only) with `gazetteer` for area-level answers; undefined when there is
 * none. An index that cannot be read as one throws, naming the file.
 */
export function openAddressRegister(dataDir: string, gazetteer: Gazetteer): AddressRegister | undefined {
  const path = addressIndexPath(dataDir);
  if (!existsSync(path)) return undefined;
  let db: Database | undefined;
  try {
    db = openSqliteFile(path, { readOnly: true });
    const summary = indexSummary(db);
    const search = new RegisterSearch(db);
    const open = db;
    const geocoder: Geocoder = {
      stable: true,
      async search(q, limit) {
        const streets = search.search(q, limit);
        const areas = gazetteer.search(q, limit).filter((h) => h.kind === 'municipality' || h.kind === 'place');
        return [...streets, ...areas]
          .sort((a: GeocodeHit, b: GeocodeHit) => b.relevance - a.relevance || COLLATOR.compare(a.address, b.address))
          .slice(0, limit);
      },
      async reverse(lat, lon) {
        return search.reverse(lat, lon);
      },
    };
    return { geocoder, summary, close: () => open.close() };
  } catch (err) {
    db?.close();
    throw new Error(`${path} is not a readable address index (${(err as Error).message}); run \`svc addresses import\` again.`, { cause: err });
  }
}
