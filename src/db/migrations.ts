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
  {
    version: 2,
    description: 'Report jobs, the daily report quota and idempotency keys of report requests',
    sql: `
      CREATE TABLE report_jobs (
        id              TEXT    PRIMARY KEY,                 -- UUID v4
        key_id          INTEGER NOT NULL REFERENCES api_keys (id),
        state           TEXT    NOT NULL CHECK (state IN ('queued', 'running', 'delivering', 'completed', 'failed')),
        request_json    TEXT    NOT NULL,                    -- ReportRequest (src/reports/report-types.ts)
        content_json    TEXT,                                -- ReportContent once gathered; NULL after retention
        attempts        INTEGER NOT NULL DEFAULT 0,          -- claims so far
        not_before_ms   INTEGER NOT NULL,                    -- a queued job waits until then (back-off)
        last_error      TEXT,                                -- last transient failure, for operators
        detail          TEXT,                                -- failure reason shown to the client
        created_ms      INTEGER NOT NULL,
        updated_ms      INTEGER NOT NULL,
        completed_ms    INTEGER,                             -- HTML ready (generation time)
        finished_ms     INTEGER,                             -- completed or failed: retention counts from here
        pdf_ms          INTEGER,                             -- PDF ready
        expired_ms      INTEGER                              -- files deleted after retention
      );
      CREATE INDEX report_jobs_due ON report_jobs (state, not_before_ms, created_ms);
      CREATE INDEX report_jobs_retention ON report_jobs (finished_ms) WHERE expired_ms IS NULL;

      CREATE TABLE report_quota (
        key_id          INTEGER NOT NULL,
        day             TEXT    NOT NULL,                    -- UTC date YYYY-MM-DD
        used            INTEGER NOT NULL,
        PRIMARY KEY (key_id, day)
      ) WITHOUT ROWID;

      CREATE TABLE report_idempotency (
        key_id          INTEGER NOT NULL,
        idem_key        TEXT    NOT NULL,                    -- the client's Idempotency-Key header
        fingerprint     TEXT    NOT NULL,                    -- SHA-256 of the request's effective parameters
        job_id          TEXT    NOT NULL REFERENCES report_jobs (id),
        PRIMARY KEY (key_id, idem_key)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 3,
    description: "Report requests carry their key's entitlement (cities, metrics), settled when they were accepted",
    sql: `
      UPDATE report_jobs
         SET request_json = json_set(request_json, '$.scope', json_object('cities', json(k.cities), 'metrics', json(k.metrics)))
        FROM api_keys AS k
       WHERE k.id = report_jobs.key_id AND json_type(request_json, '$.scope') IS NULL;
    `,
  },
];
