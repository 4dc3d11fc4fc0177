/**
 * The schema of the service database, as an ordered list of migrations. Migration N brings `PRAGMA user_version`
 * from N - 1 to N. Never edit a released migration: append a new one.
 */

/** One schema step: its version number (1, 2, …) and the SQL that performs it. */
export interface Migration {
  readonly version: number;
  readonly description: string;
  readonly sql: string;
}

/** Every migration, in order. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'API keys (hashed) and the persistent statistics cache',
    sql: `
      CREATE TABLE api_keys (
        id              INTEGER PRIMARY KEY,
        key_hash        TEXT    NOT NULL UNIQUE,             -- hex SHA-256 of the full key; the key itself is never stored
        type            TEXT    NOT NULL CHECK (type IN ('sk', 'pk')),
        label           TEXT    NOT NULL,
        cities          TEXT    NOT NULL,                    -- JSON array of city ids, or ["*"]
        products        TEXT    NOT NULL,                    -- JSON array of product ids, or ["*"]
        metrics         TEXT    NOT NULL,                    -- JSON array of metric ids, or ["*"]
        origins         TEXT    NOT NULL,                    -- JSON array of origins (publishable keys)
        rate_per_min    INTEGER,                             -- NULL: the configured default for the key type
        reports_per_day INTEGER,                             -- NULL: the configured default
        created_utc     TEXT    NOT NULL,
        expires_at      TEXT,                                -- NULL: never expires
        active          INTEGER NOT NULL DEFAULT 1,
        deactivated_utc TEXT
      );

      CREATE TABLE stats_cache (
        cache_key       TEXT    PRIMARY KEY,                 -- see src/services/cache-keys.ts
        dataset         TEXT    NOT NULL,
        content_version TEXT    NOT NULL,
        compute_version TEXT    NOT NULL,
        lat             REAL    NOT NULL,
        lon             REAL    NOT NULL,
        radius_m        REAL,
        meta_json       TEXT    NOT NULL,                    -- request-independent meta fields, JSON
        air_json        TEXT,                                -- serialised blocks, served as stored
        wind_json       TEXT,
        thermal_json    TEXT,
        created_utc     TEXT    NOT NULL
      );
      CREATE INDEX stats_cache_dataset ON stats_cache (dataset, content_version);
    `,
  },
];
