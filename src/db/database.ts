/**
 * Opens the service's SQLite database (better-sqlite3) and brings its schema up to date. WAL mode lets the CLI
 * (`svc keys …`) write while a server reads; a busy timeout absorbs the short write locks.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { DatasetError } from '../errors.js';
import { MIGRATIONS, type Migration } from './migrations.js';

/** The database handle every store receives. */
export type Database = BetterSqlite3.Database;

/** Applies every migration newer than the database's `user_version`, each in its own transaction. */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = migrations.length === 0 ? 0 : migrations[migrations.length - 1].version;
  if (current > latest) {
    throw new DatasetError(`Database schema version ${current} is newer than this program knows (${latest}); upgrade the service.`);
  }
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    })();
  }
  return latest;
}

/** Opens (creating if needed) the database file, enables WAL and foreign keys, and migrates it. */
export function openDatabase(file: string): Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  let db: Database;
  try {
    db = new BetterSqlite3(file);
  } catch (err) {
    throw new DatasetError(`Cannot open database ${file}: ${(err as Error).message}`, { cause: err });
  }
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  migrate(db);
  return db;
}
