/**
 * API keys in SQLite (table `api_keys`, see src/db/migrations.ts). Keys are looked up by the SHA-256 hash of the
 * presented key. The server puts a `CachedKeyLookup` in front (one query per key per 5 s), so an operator's change
 * (`svc keys update|deactivate`) reaches a running server within 5 seconds.
 *
 * A missing key is a value: look-ups answer `undefined`, and each caller decides what that means (401 for a presented
 * key, a failed report job when its key is gone). Only a change to a key that does not exist is an error
 * (`NotFoundError`): the operator named it.
 */
import type { Database } from '../db/database.js';
import { NotFoundError } from '../errors.js';
import { generateKey, hashKey, keyTypeOf } from './key-format.js';
import { validateChanges, validateSpec } from './key-spec.js';
import { ANY, type ApiKeyRecord, type KeyChanges, type KeyLookup, type KeySpec, type KeyType } from './key-types.js';

interface KeyRow {
  id: number;
  key_hash: string;
  type: KeyType;
  label: string;
  cities: string;
  products: string;
  metrics: string;
  origins: string;
  rate_per_min: number | null;
  reports_per_day: number | null;
  created_utc: string;
  expires_at: string | null;
  active: number;
  deactivated_utc: string | null;
}

function toRecord(row: KeyRow): ApiKeyRecord {
  return Object.freeze({
    id: row.id,
    type: row.type,
    label: row.label,
    cities: Object.freeze(JSON.parse(row.cities) as string[]),
    products: Object.freeze(JSON.parse(row.products) as ApiKeyRecord['products'][number][]),
    metrics: Object.freeze(JSON.parse(row.metrics) as ApiKeyRecord['metrics'][number][]),
    origins: Object.freeze(JSON.parse(row.origins) as string[]),
    ratePerMin: row.rate_per_min ?? undefined,
    reportsPerDay: row.reports_per_day ?? undefined,
    createdUtc: row.created_utc,
    expiresAt: row.expires_at ?? undefined,
    active: row.active === 1,
    deactivatedUtc: row.deactivated_utc ?? undefined,
  });
}

/** Key administration and look-up over the service database. */
export class SqliteKeyStore implements KeyLookup {
  readonly #db: Database;
  readonly #byHash;
  readonly #byId;

  constructor(db: Database) {
    this.#db = db;
    this.#byHash = db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE key_hash = ?');
    this.#byId = db.prepare<[number], KeyRow>('SELECT * FROM api_keys WHERE id = ?');
  }

  /** The record of a presented key, or undefined when the key is malformed or unknown. */
  findByKey(key: string): ApiKeyRecord | undefined {
    if (keyTypeOf(key) === undefined) return undefined;
    const row = this.#byHash.get(hashKey(key));
    return row ? toRecord(row) : undefined;
  }

  /** The record with this id, or undefined when there is none. */
  findById(id: number): ApiKeyRecord | undefined {
    if (!Number.isSafeInteger(id) || id < 1) return undefined;
    const row = this.#byId.get(id);
    return row ? toRecord(row) : undefined;
  }

  /** Issues a key: returns the key (shown once, never stored) and its record. */
  create(spec: KeySpec, now: Date): { key: string; record: ApiKeyRecord } {
    const valid = validateSpec(spec, now);
    const key = generateKey(valid.type);
    const info = this.#db
      .prepare(
        `INSERT INTO api_keys (key_hash, type, label, cities, products, metrics, origins, rate_per_min, reports_per_day,
           created_utc, expires_at, active)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)`,
      )
      .run(
        hashKey(key),
        valid.type,
        valid.label,
        JSON.stringify(valid.cities ?? [ANY]),
        JSON.stringify(valid.products ?? [ANY]),
        JSON.stringify(valid.metrics ?? [ANY]),
        JSON.stringify(valid.origins ?? []),
        valid.ratePerMin ?? null,
        valid.reportsPerDay ?? null,
        now.toISOString(),
        valid.expiresAt ?? null,
      );
    return { key, record: this.#written(Number(info.lastInsertRowid)) };
  }

  /** The record of a row this store has just written or checked (it exists: no key is ever deleted). */
  #written(id: number): ApiKeyRecord {
    return toRecord(this.#byId.get(id)!);
  }

  /** Every key, oldest first. */
  list(): ApiKeyRecord[] {
    return this.#db.prepare<[], KeyRow>('SELECT * FROM api_keys ORDER BY id').all().map(toRecord);
  }

  /** Applies the operator's changes and returns the updated record; NotFoundError when there is no key with this id. */
  update(id: number, changes: KeyChanges, now: Date): ApiKeyRecord {
    const current = this.findById(id);
    if (current === undefined) throw new NotFoundError(`No key with id ${id}.`);
    const valid = validateChanges(changes);
    const sets: string[] = [];
    const values: (string | number | null)[] = [];
    const put = (column: string, value: string | number | null) => {
      sets.push(`${column} = ?`);
      values.push(value);
    };
    if (valid.label !== undefined) put('label', valid.label);
    if (valid.cities !== undefined) put('cities', JSON.stringify(valid.cities));
    if (valid.products !== undefined) put('products', JSON.stringify(valid.products));
    if (valid.metrics !== undefined) put('metrics', JSON.stringify(valid.metrics));
    if (valid.origins !== undefined) put('origins', JSON.stringify(valid.origins));
    if (valid.ratePerMin !== undefined) put('rate_per_min', valid.ratePerMin);
    if (valid.reportsPerDay !== undefined) put('reports_per_day', valid.reportsPerDay);
    if (valid.expiresAt !== undefined) put('expires_at', valid.expiresAt);
    if (valid.active === true && !current.active) {
      put('active', 1);
      put('deactivated_utc', null);
    } else if (valid.active === false && current.active) {
      put('active', 0);
      put('deactivated_utc', now.toISOString());
    }
    if (sets.length > 0) this.#db.prepare(`UPDATE api_keys SET ${sets.join(', ')} WHERE id = ?`).run(...values, id);
    return this.#written(id);
  }

  /** Deactivates a key (it then answers 403); reactivation is `update(id, { active: true })`. NotFoundError as `update`. */
  deactivate(id: number, now: Date): ApiKeyRecord {
    return this.update(id, { active: false }, now);
  }
}
