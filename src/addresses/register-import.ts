/**
 * `svc addresses import`: the register files (register-csv.ts) into the address index (register-index.ts), streaming.
 * Only `current` records are kept; the boxes of a house number are folded into it (at the mean of their points);
 * each street and postcode becomes one street row. The index is built in a temporary file beside its final place and
 * renamed over it only once complete, so an interrupted or failed import leaves the previous index serving (a server
 * holding the old file open keeps reading it until it reopens). A malformed file stops the import with the file, line
 * and reason.
 */
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { openSqliteFile, type Database } from '../db/database.js';
import { foldText, tokenize } from '../geocode/normalize.js';
import { readRegister, RegisterFileError, type RegisterRecord } from './register-csv.js';
import { addressIndexPath, CELL_LAT_E6, CELL_LON_E6, deletions, INDEX_FORMAT, INDEXES, SCHEMA } from './register-index.js';

/** What an import did. */
export interface ImportSummary {
  /** Records read (every status). */
  readonly rows: number;
  /** Records kept (`current` with a house number). */
  readonly current: number;
  readonly addresses: number;
  readonly streets: number;
  readonly path: string;
}

/** Progress callbacks: the total bytes on disk, then bytes consumed as they are. */
export interface ImportProgress {
  start(totalBytes: number): void;
  bytes(n: number): void;
}

type Lang = 'fr' | 'nl' | 'de';

/** A street row being gathered. */
interface StreetRow {
  readonly id: number;
  readonly streetId: string;
  readonly postcode: string;
  readonly region: string;
  readonly names: readonly string[];
  readonly towns: readonly string[];
  readonly localities: readonly string[];
  sumLat: number;
  sumLon: number;
  count: number;
}

/** The official languages of the area of `r`, the one displayed by default first. */
function languagesOf(r: RegisterRecord): Lang[] {
  const order: Lang[] = r.region_code === 'BE-VLG' ? ['nl', 'fr', 'de']
    : r.region_code === 'BE-WAL' ? (r.municipality_name_de.trim() !== '' ? ['de', 'fr', 'nl'] : ['fr', 'de', 'nl'])
      : ['fr', 'nl', 'de'];
  return order.filter((l) => r[`streetname_${l}`].trim() !== '');
}

/** A new street row for record `r` (names aligned by language). */
function streetRow(id: number, r: RegisterRecord, line: number, file: string): StreetRow {
  const langs = languagesOf(r);
  if (langs.length === 0) throw new RegisterFileError(file, line, 'a current address without a street name');
  const anyTown = [r.municipality_name_fr, r.municipality_name_nl, r.municipality_name_de].map((t) => t.trim()).find((t) => t !== '');
  if (anyTown === undefined) throw new RegisterFileError(file, line, 'a current address without a municipality name');
  const localities = [...new Set([r.postname_fr.trim(), r.postname_nl.trim()].filter((p) => p !== ''))];
  return {
    id, streetId: r.street_id, postcode: r.postcode.trim(), region: r.region_code,
    names: langs.map((l) => r[`streetname_${l}`].trim()),
    towns: langs.map((l) => r[`municipality_name_${l}`].trim() || anyTown),
    localities, sumLat: 0, sumLon: 0, count: 0,
  };
}

/** A coordinate of `r`, checked. */
function coordinate(r: RegisterRecord, column: 'EPSG:4326_lat' | 'EPSG:4326_lon', file: string, line: number): number {
  const v = Number(r[column]);
  const [lo, hi] = column === 'EPSG:4326_lat' ? [49, 52] : [2, 7];
  if (r[column].trim() === '' || !Number.isFinite(v) || v < lo || v > hi) {
    throw new RegisterFileError(file, line, `${column} ${JSON.stringify(r[column])} is not a coordinate in Belgium`);
  }
  return v;
}

/** The house number as the index keeps it: trimmed, letters upper case, no inner spaces (`16 a` → `16A`). */
function canonicalNumber(raw: string): string {
  return raw.trim().replace(/\s+/g, '').toUpperCase();
}

/** Imports `files` into the index of `dataDir`, replacing the previous one only when complete. */
export async function importRegister(dataDir: string, files: readonly string[], progress?: ImportProgress): Promise<ImportSummary> {
  const sizes = await Promise.all(files.map(async (f) => {
    try {
      return (await stat(f)).size;
    } catch {
      throw new RegisterFileError(f, 0, 'no such file');
    }
  }));
  progress?.start(sizes.reduce((a, b) => a + b, 0));
  const path = addressIndexPath(dataDir);
  const tmp = join(dirname(path), `.addresses.sqlite.tmp-${process.pid}`);
  await mkdir(dataDir, { recursive: true });
  await removeAbandoned(dirname(path));
  const db = openSqliteFile(tmp);
  try {
    const summary = await fill(db, files, progress);
    db.close();
    // On disk before it takes the index's name (the writes above were not synchronous).
    const handle = await open(tmp, 'r+');
    await handle.sync();
    await handle.close();
    await rename(tmp, path);
    return { ...summary, path };
  } catch (err) {
    if (db.open) db.close();
    await rm(tmp, { force: true });
    throw err;
  }
}

/** Removes the temporary files of imports whose process is gone (interrupted: Ctrl-C, a crash). */
async function removeAbandoned(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    const m = /^\.addresses\.sqlite\.tmp-(\d+)$/.exec(name);
    if (m === null) continue;
    const pid = Number(m[1]);
    let alive = pid !== process.pid;
    try {
      if (alive) process.kill(pid, 0);
    } catch {
      alive = false;
    }
    if (!alive) await rm(join(dir, name), { force: true });
  }
}

/** Reads the files into the new index `db`; returns the counts. */
async function fill(db: Database, files: readonly string[], progress?: ImportProgress): Promise<Omit<ImportSummary, 'path'>> {
  db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -262144;');
  db.exec(SCHEMA);
  // Every kept record, before boxes are folded: in the temporary (in-memory) database, so the file never holds them.
  db.exec('CREATE TEMP TABLE raw (street INTEGER NOT NULL, number TEXT NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL)');
  const insertRaw = db.prepare<[number, string, number, number]>('INSERT INTO raw VALUES (?, ?, ?, ?)');
  const streets = new Map<string, StreetRow>();
  let rows = 0;
  let current = 0;
  db.exec('BEGIN');
  for await (const batch of readRegister(files, (n) => progress?.bytes(n))) {
    for (const { record: r, file, line } of batch) {
      rows++;
      if (r.status.trim() !== 'current') continue;
      const number = canonicalNumber(r.house_number);
      if (number === '') continue;
      const lat = coordinate(r, 'EPSG:4326_lat', file, line);
      const lon = coordinate(r, 'EPSG:4326_lon', file, line);
      const key = `${r.street_id}|${r.postcode.trim()}`;
      let street = streets.get(key);
      if (street === undefined) streets.set(key, (street = streetRow(streets.size + 1, r, line, file)));
      street.sumLat += lat;
      street.sumLon += lon;
      street.count++;
      insertRaw.run(street.id, number, lat, lon);
      current++;
    }
  }
  // Boxes folded into their house number.
  // The cell as cellOf computes it (the same double arithmetic; coordinates are positive, so CAST floors).
  db.exec(`INSERT INTO addresses (street, number, num, lat, lon, cell)
    SELECT street, number, CAST(number AS INTEGER), lat, lon,
      CAST(lat * 1e6 / ${CELL_LAT_E6} AS INTEGER) * 1048576 + CAST(lon * 1e6 / ${CELL_LON_E6} AS INTEGER)
    FROM (SELECT street, number, avg(lat) AS lat, avg(lon) AS lon FROM raw GROUP BY street, number)`);
  db.exec('DROP TABLE raw');
  db.exec(INDEXES);
  writeStreets(db, streets);
  const addresses = Number(db.prepare<[], { n: number }>('SELECT count(*) AS n FROM addresses').get()!.n);
  const meta = db.prepare<[string, string]>('INSERT INTO meta VALUES (?, ?)');
  for (const [k, v] of Object.entries({
    format: INDEX_FORMAT, rows, addresses, streets: streets.size, imported_utc: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    files: JSON.stringify(files.map((f) => f.split(/[\\/]/).pop())),
  })) meta.run(k, String(v));
  db.exec('COMMIT');
  db.exec('ANALYZE');
  return { rows, current, addresses, streets: streets.size };
}

/** The street rows, their full-text entries and the dictionary of their words. */
function writeStreets(db: Database, streets: ReadonlyMap<string, StreetRow>): void {
  const insert = db.prepare<[number, string, string, string, string, string, string, number, number]>('INSERT INTO streets VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const words = db.prepare<[number, string, string]>('INSERT INTO street_words (rowid, street, town) VALUES (?, ?, ?)');
  // The street's point: its address nearest the mean of its addresses, so it lies on the street.
  const nearest = db.prepare<[number, number, number, number, number], { lat: number; lon: number }>(`SELECT lat, lon FROM addresses WHERE street = ?
    ORDER BY (lat - ?) * (lat - ?) + (lon - ?) * (lon - ?) * 0.4 LIMIT 1`);
  const vocab = new Set<string>();
  for (const s of streets.values()) {
    const mLat = s.sumLat / s.count;
    const mLon = s.sumLon / s.count;
    const p = nearest.get(s.id, mLat, mLat, mLon, mLon)!;
    insert.run(s.id, s.streetId, s.postcode, s.region, JSON.stringify(s.names), JSON.stringify(s.towns), JSON.stringify(s.localities), p.lat, p.lon);
    const street = foldText(s.names.join(' '));
    const town = foldText([...new Set([...s.towns, ...s.localities])].join(' '));
    words.run(s.id, street, `${town} ${s.postcode}`);
    for (const w of tokenize(`${street} ${town}`)) vocab.add(w);
  }
  const del = db.prepare<[string, string]>('INSERT INTO vocab_deletes VALUES (?, ?)');
  const word = db.prepare<[string]>('INSERT INTO vocab VALUES (?)');
  for (const w of vocab) {
    if (/^[0-9]+$/.test(w)) continue;
    word.run(w);
    del.run(w, w);
    for (const d of deletions(w)) del.run(d, w);
  }
}
