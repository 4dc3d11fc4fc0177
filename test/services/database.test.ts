import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../src/db/database.js';
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

  it('refuses a database newer than the program', () => {
    const db = openDatabase(':memory:');
    db.pragma('user_version = 999');
    expect(() => migrate(db)).toThrow(DatasetError);
  });
});
