/**
 * Opens the service's SQLite database (Node's built-in `node:sqlite`) and brings its schema up to date. WAL mode lets
 * the CLI (`svc keys …`) write while a server reads; a busy timeout absorbs the short write locks.
 *
 * The stores see a small typed handle (`Database`): prepared statements typed by their parameters and rows, and
 * transactions as wrapped functions (nested calls become savepoints). `node:sqlite` replaced the better-sqlite3 addon
 * at Node 24: the same speed on the service's statements (docs/benchmarks.md, "SQLite") and no native build.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { DatasetError } from '../errors.js';
import { MIGRATIONS, type Migration } from './migrations.js';

/** What running a statement changed. */
export interface RunResult {
  readonly changes: number | bigint;
  readonly lastInsertRowid: number | bigint;
}

/** A value a statement takes: positional values, or one object of named values (keys without their `@`). */
type Param = SQLInputValue | Readonly<Record<string, SQLInputValue>>;

/** A prepared statement taking parameters `P` and returning rows `R`. */
export interface Statement<P extends readonly Param[] = Param[], R = unknown> {
  get(...params: P): R | undefined;
  all(...params: P): R[];
  run(...params: P): RunResult;
}

/** The database handle every store receives. */
export interface Database {
  prepare<P extends readonly Param[] = Param[], R = unknown>(sql: string): Statement<P, R>;
  exec(sql: string): void;
  /** `fn` as one transaction: committed when it returns, rolled back when it throws; nested calls are savepoints. */
  transaction<A extends unknown[], T>(fn: (...args: A) => T): (...args: A) => T;
  /** The value of a pragma (`user_version`), or runs an assignment (`journal_mode = WAL`). */
  pragma(statement: string): unknown;
  /** Whether the database is open. */
  readonly open: boolean;
  close(): void;
}

/** `DatabaseSync` seen as a `Database` (a test migrates one step by step). */
export class SqliteDatabase implements Database {
  readonly #db: DatabaseSync;
  #depth = 0;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  get open(): boolean {
    return this.#db.isOpen;
  }

  prepare<P extends readonly Param[] = Param[], R = unknown>(sql: string): Statement<P, R> {
    const statement: StatementSync = this.#db.prepare(sql);
    const args = (params: P) => params as unknown as SQLInputValue[];
    return {
      get: (...params) => statement.get(...args(params)) as R | undefined,
      all: (...params) => statement.all(...args(params)) as R[],
      run: (...params) => statement.run(...args(params)),
    };
  }

  exec(sql: string): void {
    this.#db.exec(sql);
  }

  transaction<A extends unknown[], T>(fn: (...args: A) => T): (...args: A) => T {
    return (...args: A): T => {
      const savepoint = `sp${this.#depth}`;
      this.#db.exec(this.#depth === 0 ? 'BEGIN' : `SAVEPOINT ${savepoint}`);
      this.#depth++;
      try {
        const result = fn(...args);
        this.#depth--;
        this.#db.exec(this.#depth === 0 ? 'COMMIT' : `RELEASE ${savepoint}`);
        return result;
      } catch (err) {
        this.#depth--;
        this.#db.exec(this.#depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
        throw err;
      }
    };
  }

  pragma(statement: string): unknown {
    if (statement.includes('=')) {
      this.#db.exec(`PRAGMA ${statement}`);
      return undefined;
    }
    const row = this.#db.prepare(`PRAGMA ${statement}`).get() as Record<string, unknown> | undefined;
    return row === undefined ? undefined : Object.values(row)[0];
  }

  close(): void {
    this.#db.close();
  }
}

/** Applies every migration newer than the database's `user_version`, each in its own transaction. */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): number {
  const current = Number(db.pragma('user_version'));
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

/**
 * Opens a SQLite file as it is, without the service's schema or pragmas: another format (the address index, read only
 * by the geocoder and written by its import), or the service's database for inspection (`readOnly`).
 */
export function openSqliteFile(file: string, options: { readonly readOnly?: boolean } = {}): Database {
  return new SqliteDatabase(new DatabaseSync(file, { readOnly: options.readOnly === true }));
}

/** Opens (creating if needed) the database file, enables WAL and foreign keys, and migrates it. */
export function openDatabase(file: string): Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  let db: Database;
  try {
    db = new SqliteDatabase(new DatabaseSync(file));
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
