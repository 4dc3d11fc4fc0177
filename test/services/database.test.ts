import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { migrate, openDatabase, SqliteDatabase } from '../../src/db/database.js';
import { MIGRATIONS } from '../../src/db/migrations.js';
import { DatasetError } from '../../src/errors.js';

describe('openDatabase', () => {
  it('creates the file, enables WAL and applies every migration once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-db-'));
    try {
      const file = join(dir, 'nested', 'svc.sqlite');
      const db = openDatabase(file);
      expect(db.pragma('journal_mode')).toBe('wal');
      expect(db.pragma('user_version')).toBe(MIGRATIONS.at(-1)!.version);
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => (r as { name: string }).name);
      expect(tables).toEqual(expect.arrayContaining(['api_keys', 'stats_cache']));
      db.close();
      const again = openDatabase(file);
      expect(migrate(again)).toBe(MIGRATIONS.at(-1)!.version);
      again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('numbers migrations 1, 2, … without gaps', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it("gives report jobs accepted before version 3 their key's entitlement", () => {
    const db = new SqliteDatabase(new DatabaseSync(':memory:'));
    migrate(db, MIGRATIONS.slice(0, 2));
    db.prepare(`INSERT INTO api_keys (id, key_hash, type, label, cities, products, metrics, origins, created_utc)
                VALUES (7, 'h', 'sk', 'k', '["ghent"]', '["*"]', '["air","wind"]', '[]', '2026-01-01T00:00:00Z')`).run();
    const insert = db.prepare(`INSERT INTO report_jobs (id, key_id, state, request_json, not_before_ms, created_ms, updated_ms)
                               VALUES (?, 7, 'queued', ?, 0, 0, 0)`);
    insert.run('old', JSON.stringify({ address: 'a', lat: 51, lon: 3.7, radiusM: 10, lang: 'en', keyId: 7 }));
    const own = { cities: ['*'], metrics: ['air'] };
    insert.run('new', JSON.stringify({ address: 'a', lat: 51, lon: 3.7, radiusM: 10, lang: 'en', keyId: 7, scope: own }));
    migrate(db);
    const scopes = db.prepare('SELECT id, request_json FROM report_jobs ORDER BY id').all()
      .map((r) => [(r as { id: string }).id, JSON.parse((r as { request_json: string }).request_json).scope]);
    expect(scopes).toEqual([['new', own], ['old', { cities: ['ghent'], metrics: ['air', 'wind'] }]]);
    db.close();
  });

  it('refuses a database newer than the program', () => {
    const db = openDatabase(':memory:');
    db.pragma('user_version = 999');
    expect(() => migrate(db)).toThrow(DatasetError);
  });
});
