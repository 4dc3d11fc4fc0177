/**
 * `svc keys create|list|update|deactivate`: the operator's tools for API keys. A key is printed once, at creation;
 * only its SHA-256 hash is stored, so a lost key is replaced, never recovered. Changes apply to a running server at
 * once (it reads the same database).
 */
import { parseArgs } from 'node:util';
import { CITIES } from '../../cities/catalog.js';
import type { Config } from '../../config.js';
import { openDatabase } from '../../db/database.js';
import { ValidationError } from '../../errors.js';
import { keyLimits } from '../../keys/entitlement.js';
import { SqliteKeyStore } from '../../keys/key-store.js';
import { ANY, type ApiKeyRecord, type KeyChanges, type KeySpec } from '../../keys/key-types.js';
import type { Command } from '../command.js';
import { processConfig } from '../options.js';
import { UsageError } from '../usage-error.js';

const SCOPE_HELP = `Scopes are comma-separated ids or '*' (every one): cities from the catalogue, products geocode, historical,
realtime, forecast, reports, map; metrics air, wind, thermal, noise. Origins: scheme://host[:port] or
scheme://*.domain (any subdomain). Dates: YYYY-MM-DD (the key works through that UTC day) or an ISO 8601 instant.`;

const DB_OPTION = { db: { type: 'string' } } as const;

function list(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(',').map((v) => v.trim()).filter((v) => v !== '');
}

function knownCities(ids: string[] | undefined): string[] | undefined {
  if (ids === undefined) return undefined;
  const unknown = ids.filter((id) => id !== ANY && !CITIES.some((c) => c.id === id));
  if (unknown.length > 0) {
    throw new ValidationError(`Unknown cities: ${unknown.join(', ')} (known: ${CITIES.map((c) => c.id).join(', ')}).`);
  }
  return ids;
}

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new ValidationError(`--${name} must be a whole number, got '${value}'.`);
  return Number(value);
}

function keyId(positionals: string[]): number {
  const [id, ...rest] = positionals;
  if (id === undefined || rest.length > 0 || !/^\d+$/.test(id)) throw new UsageError('Give exactly one key id (see `svc keys list`).');
  return Number(id);
}

function withStore<T>(dbFlag: string | undefined, fn: (store: SqliteKeyStore, config: Config) => T): T {
  const config = processConfig({ dbFile: dbFlag });
  const db = openDatabase(config.dbFile);
  try {
    return fn(new SqliteKeyStore(db), config);
  } finally {
    db.close();
  }
}

/** The operator's view of a key (never its hash): scopes, effective limits, origins, dates and state. */
function describeKey(key: ApiKeyRecord, config: Config) {
  const limits = keyLimits(key, config.limits);
  return {
    id: key.id,
    type: key.type,
    label: key.label,
    active: key.active,
    cities: key.cities,
    products: key.products,
    metrics: key.metrics,
    origins: key.origins,
    limits: { rate_per_min: limits.ratePerMin, reports_per_day: limits.reportsPerDay },
    created: key.createdUtc,
    expires_at: key.expiresAt ?? null,
    ...(key.deactivatedUtc ? { deactivated_utc: key.deactivatedUtc } : {}),
  };
}

function summaryLine(key: ApiKeyRecord, config: Config): string {
  const d = describeKey(key, config);
  const own = (v: number | undefined) => (v === undefined ? ' (default)' : '');
  return [
    `id ${d.id}  ${d.type}  ${d.active ? 'active' : 'DEACTIVATED'}  "${d.label}"`,
    `  cities ${d.cities.join(',')}  products ${d.products.join(',')}  metrics ${d.metrics.join(',')}`,
    `  origins ${d.origins.length ? d.origins.join(',') : '-'}`,
    `  limits ${d.limits.rate_per_min}/min${own(key.ratePerMin)}, ${d.limits.reports_per_day} reports/day${own(key.reportsPerDay)}`,
    `  created ${d.created}  expires ${d.expires_at ?? 'never'}`,
  ].join('\n');
}

/** `svc keys create`. */
export const keysCreateCommand: Command = {
  path: ['keys', 'create'],
  summary: 'Issue an API key (printed once)',
  usage: `Usage: svc keys create --type sk|pk --label TEXT [--cities IDS] [--products IDS] [--metrics IDS]
       [--origins LIST] [--rate-per-min N] [--reports-per-day N] [--expires DATE] [--json] [--db FILE]

Omitted scopes mean '*'; omitted limits follow the configured defaults. --json prints {"key", ...settings}.
${SCOPE_HELP}`,
  async run(args) {
    const { values } = parseArgs({
      args,
      strict: true,
      options: {
        ...DB_OPTION,
        type: { type: 'string' }, label: { type: 'string' }, cities: { type: 'string' }, products: { type: 'string' },
        metrics: { type: 'string' }, origins: { type: 'string' }, 'rate-per-min': { type: 'string' },
        'reports-per-day': { type: 'string' }, expires: { type: 'string' }, json: { type: 'boolean' },
      },
    });
    if (values.type === undefined) throw new UsageError('--type sk|pk is required.');
    if (values.type !== 'sk' && values.type !== 'pk') throw new ValidationError('--type must be sk or pk.');
    if (values.label === undefined) throw new UsageError('--label is required.');
    const spec: KeySpec = {
      type: values.type,
      label: values.label,
      cities: knownCities(list(values.cities)),
      products: list(values.products) as KeySpec['products'],
      metrics: list(values.metrics) as KeySpec['metrics'],
      origins: list(values.origins),
      ratePerMin: integer('rate-per-min', values['rate-per-min']),
      reportsPerDay: integer('reports-per-day', values['reports-per-day']),
      expiresAt: values.expires,
    };
    return withStore(values.db, (store, config) => {
      const { key, record } = store.create(spec, new Date());
      if (values.json) {
        console.log(JSON.stringify({ key, ...describeKey(record, config) }, null, 2));
      } else {
        console.log(`Store this key now; it is shown once and cannot be recovered:\n\n  ${key}\n\n${summaryLine(record, config)}`);
      }
      return 0;
    });
  },
};

/** `svc keys list`. */
export const keysListCommand: Command = {
  path: ['keys', 'list'],
  summary: 'List API keys (ids, scopes, limits, state; never the keys)',
  usage: 'Usage: svc keys list [--json] [--db FILE]',
  async run(args) {
    const { values } = parseArgs({ args, strict: true, options: { ...DB_OPTION, json: { type: 'boolean' } } });
    return withStore(values.db, (store, config) => {
      const keys = store.list();
      if (values.json) console.log(JSON.stringify(keys.map((k) => describeKey(k, config)), null, 2));
      else console.log(keys.length === 0 ? 'No keys.' : keys.map((k) => summaryLine(k, config)).join('\n\n'));
      return 0;
    });
  },
};

/** `svc keys update`. */
export const keysUpdateCommand: Command = {
  path: ['keys', 'update'],
  summary: 'Change the scopes, origins, limits, expiry or label of a key, or reactivate it',
  usage: `Usage: svc keys update ID [--label TEXT] [--cities IDS] [--products IDS] [--metrics IDS] [--origins LIST]
       [--rate-per-min N|default] [--reports-per-day N|default] [--expires DATE|never] [--reactivate] [--json] [--db FILE]

--origins '' clears the allowlist. ${SCOPE_HELP}`,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: {
        ...DB_OPTION,
        label: { type: 'string' }, cities: { type: 'string' }, products: { type: 'string' }, metrics: { type: 'string' },
        origins: { type: 'string' }, 'rate-per-min': { type: 'string' }, 'reports-per-day': { type: 'string' },
        expires: { type: 'string' }, reactivate: { type: 'boolean' }, json: { type: 'boolean' },
      },
    });
    const id = keyId(positionals);
    const orDefault = (name: string, v: string | undefined) => (v === 'default' ? null : integer(name, v));
    const changes: KeyChanges = {
      label: values.label,
      cities: knownCities(list(values.cities)),
      products: list(values.products) as KeyChanges['products'],
      metrics: list(values.metrics) as KeyChanges['metrics'],
      origins: list(values.origins),
      ratePerMin: orDefault('rate-per-min', values['rate-per-min']),
      reportsPerDay: orDefault('reports-per-day', values['reports-per-day']),
      expiresAt: values.expires === 'never' ? null : values.expires,
      active: values.reactivate ? true : undefined,
    };
    return withStore(values.db, (store, config) => {
      const record = store.update(id, changes, new Date());
      console.log(values.json ? JSON.stringify(describeKey(record, config), null, 2) : summaryLine(record, config));
      return 0;
    });
  },
};

/** `svc keys deactivate`. */
export const keysDeactivateCommand: Command = {
  path: ['keys', 'deactivate'],
  summary: 'Deactivate a key (requests with it answer 403)',
  usage: 'Usage: svc keys deactivate ID [--json] [--db FILE]\n\nReactivate with `svc keys update ID --reactivate`.',
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: { ...DB_OPTION, json: { type: 'boolean' } },
    });
    const id = keyId(positionals);
    return withStore(values.db, (store, config) => {
      const record = store.deactivate(id, new Date());
      console.log(values.json ? JSON.stringify(describeKey(record, config), null, 2) : summaryLine(record, config));
      return 0;
    });
  },
};
