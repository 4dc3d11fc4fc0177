/**
 * Service configuration: read once from the environment (`SVC_*` variables) that the process's entry point hands to
 * `loadConfig`, validated, defaults filled, frozen. Every setting is an entry of the table in config/settings.ts, from
 * which the type below, the parsing, the checks and the docs table derive. Nothing else reads the environment;
 * everything receives a `Config` (or the part it needs). The variables are documented in docs/operations.md.
 */
import { resolve } from 'node:path';
import type { DefaultLimits } from './keys/entitlement.js';
import type { GeocoderChoice } from './config/geocoder-kind.js';
import { fail, type Kind } from './config/kinds.js';
import { cacheBudgets } from './config/memory-budget.js';
import { packageVersion } from './config/package-version.js';
import {
  CONDITIONS, SETTING_KEYS, SETTINGS, type DefaultContext, type Setting, type SettingKey, type SettingValues,
} from './config/settings.js';

/** Default per-key limits (their shape is the keys' own); a key's own value, when set by the operator, wins. */
export type { DefaultLimits };

/** Which geocoder answers `/geocode` and address look-ups: the embedded gazetteer, or an HTTP geocoder and its limits. */
export type GeocoderConfig =
  | Extract<GeocoderChoice, { kind: 'embedded' }>
  | (Exclude<GeocoderChoice, { kind: 'embedded' }> & {
      readonly timeoutMs: SettingValues['geocoderTimeoutMs'];
      readonly userAgent: SettingValues['geocoderUserAgent'];
    });

/** The NATS JetStream cluster a node joins (`SVC_NATS_URL`) and its queue's limits. */
export interface NatsConfig {
  readonly url: NonNullable<SettingValues['natsUrl']>;
  readonly ackWaitMs: SettingValues['natsAckWaitMs'];
  readonly maxDeliver: SettingValues['natsMaxDeliver'];
  /** How long a precompute coordinator and a worker ride out a lost connection, ms. */
  readonly outageMs: SettingValues['natsOutageMs'];
}

/** The settings `Config` gathers into `limits`, `geocoder` and `nats`. */
type GroupedKey =
  | keyof DefaultLimits | 'geocoder' | 'geocoderTimeoutMs' | 'geocoderUserAgent' | 'natsUrl' | 'natsAckWaitMs' | 'natsMaxDeliver'
  | 'natsOutageMs';

/** The whole, validated configuration of one service process: every setting of the table, some in groups. */
export type Config = Omit<SettingValues, GroupedKey> & {
  /** Version string reported by `/health` (package.json `version`). */
  readonly version: string;
  readonly limits: DefaultLimits;
  readonly geocoder: GeocoderConfig;
  /** The cluster this node joins; undefined: the embedded default, one process, no NATS. */
  readonly nats: NatsConfig | undefined;
};

/** `T` with every property optional, absent or undefined alike (undefined: not overridden). */
type Optional<T> = { [K in keyof T]?: T[K] | undefined };

/** Settings a caller may override after the environment is read (CLI flags, tests); validated like the rest. */
export type ConfigOverrides = Optional<Omit<Config, 'limits' | 'geocoder' | 'nats'>> & {
  readonly limits?: Optional<DefaultLimits> | undefined;
  readonly geocoder?: GeocoderConfig | undefined;
  /** A cluster to join; an outage bound it leaves out is the environment's (or the default). */
  readonly nats?: Omit<NatsConfig, 'outageMs'> & Partial<Pick<NatsConfig, 'outageMs'>>;
};

/** Environment variable names, one per setting (documented in docs/operations.md). */
export const ENV_VARS = Object.freeze(
  Object.fromEntries(SETTING_KEYS.map((key) => [key, SETTINGS[key].env])),
) as Readonly<Record<SettingKey, string>>;

/** Variables by name, as the process's environment holds them. */
type Environment = Readonly<Record<string, string | undefined>>;

/** A setting's value from its variable, or its default; a derived default needs the context. */
function read<T>(setting: Setting<T>, env: Environment, context?: DefaultContext): T {
  const text = env[setting.env];
  const value = text === undefined ? undefined : setting.kind.parse(text, setting.env);
  if (value !== undefined) return value;
  if (typeof setting.default !== 'function') return setting.default;
  if (context === undefined) throw new Error(`The default of ${setting.env} is derived and cannot be read first.`);
  return (setting.default as (context: DefaultContext) => T)(context);
}

/** Every setting's value from the environment, in the table's order, leaving out those whose condition fails. */
function readEnvironment(env: Environment, context: DefaultContext): Partial<SettingValues> {
  const values: Partial<Record<SettingKey, unknown>> = {};
  for (const key of SETTING_KEYS) {
    const { onlyWith } = SETTINGS[key];
    if (onlyWith !== undefined) {
      const condition = CONDITIONS[onlyWith];
      if (!(condition.holds as (value: unknown) => boolean)(values[condition.on])) continue;
    }
    values[key] = read(SETTINGS[key] as Setting<unknown>, env, context);
  }
  return values as Partial<SettingValues>;
}

/** The configuration of a full set of values (group members absent where their condition failed). */
function assemble(values: Partial<SettingValues>, context: DefaultContext): Config {
  const {
    secretPerMin, publishablePerMin, reportsPerDay, geocoder, geocoderTimeoutMs, geocoderUserAgent, natsUrl, natsAckWaitMs,
    natsMaxDeliver, natsOutageMs, ...direct
  } = values as SettingValues;
  return {
    ...direct,
    dataDir: context.dataDir,
    version: context.version,
    limits: { secretPerMin, publishablePerMin, reportsPerDay },
    geocoder: geocoder.kind === 'embedded' ? geocoder : { ...geocoder, timeoutMs: geocoderTimeoutMs, userAgent: geocoderUserAgent },
    nats: natsUrl === undefined ? undefined : { url: natsUrl, ackWaitMs: natsAckWaitMs, maxDeliver: natsMaxDeliver, outageMs: natsOutageMs },
  };
}

/** The setting values a configuration holds; the members of an unused group are absent. */
function valuesOf(config: Config): Partial<SettingValues> {
  const { version: _version, limits, geocoder, nats, ...direct } = config;
  return {
    ...direct,
    ...limits,
    ...(geocoder.kind === 'embedded'
      ? { geocoder }
      : { geocoder: { kind: geocoder.kind, url: geocoder.url }, geocoderTimeoutMs: geocoder.timeoutMs, geocoderUserAgent: geocoder.userAgent }),
    natsUrl: nats?.url,
    ...(nats !== undefined ? { natsAckWaitMs: nats.ackWaitMs, natsMaxDeliver: nats.maxDeliver, natsOutageMs: nats.outageMs } : {}),
  };
}

/** Pairs of settings [lower, upper] where the first must not exceed the second. */
const BOUNDS = SETTING_KEYS.flatMap((key) => {
  const upper = SETTINGS[key].atMost as SettingKey | undefined;
  return upper === undefined ? [] : [[key, upper] as const];
});

/** Checks every value in the table's order; a bound between two settings right after the later of them. */
function check(values: Partial<SettingValues>): void {
  const checked = new Set<SettingKey>();
  for (const key of SETTING_KEYS) {
    if (!(key in values)) continue;
    const setting = SETTINGS[key] as Setting<unknown>;
    setting.kind.check(values[key], setting.env);
    checked.add(key);
    for (const [lower, upper] of BOUNDS) {
      if ((key !== lower && key !== upper) || !checked.has(lower) || !checked.has(upper)) continue;
      const [low, high] = [values[lower] as number, values[upper] as number];
      if (low > high) fail(SETTINGS[lower].env, `must not exceed ${SETTINGS[upper].env} (${high})`, low);
    }
  }
}

/** The configuration as kept: values normalised by their kind, frozen through its groups. */
function frozen(config: Config): Config {
  const normalized: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const { normalize } = SETTINGS[key].kind as Kind<unknown>;
    if (normalize !== undefined && key in config) normalized[key] = normalize(config[key as keyof Config]);
  }
  return Object.freeze({
    ...config,
    ...normalized,
    limits: Object.freeze({ ...config.limits }),
    geocoder: Object.freeze({ ...config.geocoder }),
    nats: config.nats === undefined ? undefined : Object.freeze({ ...config.nats }),
  });
}

/** The queue limits of a NATS cluster where no variable sets them: the table's defaults. */
export function defaultNatsLimits(): Omit<NatsConfig, 'url'> {
  return {
    ackWaitMs: read(SETTINGS.natsAckWaitMs, {}), maxDeliver: read(SETTINGS.natsMaxDeliver, {}), outageMs: read(SETTINGS.natsOutageMs, {}),
  };
}

/**
 * Reads `env` (the process's environment, handed over by its entry point), applies `overrides`, validates and
 * freezes the configuration; throws a ValidationError naming the offending variable.
 */
export function loadConfig(env: Environment, overrides: ConfigOverrides = {}): Config {
  // Derived defaults start from these: the data directory (resolved whichever source gives it) and the docs URL.
  const dataDir = resolve(overrides.dataDir ?? read(SETTINGS.dataDir, env));
  const context: DefaultContext = { dataDir, docsUrl: read(SETTINGS.docsUrl, env), version: packageVersion() };
  const fromEnv = assemble(readEnvironment(env, context), context);
  // The overrides given a value: an undefined one is absent, so it never hides the environment's in the spread below.
  const given = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) as {
    [K in keyof ConfigOverrides]?: Exclude<ConfigOverrides[K], undefined>;
  };
  const limits = Object.fromEntries(Object.entries(given.limits ?? {}).filter(([, v]) => v !== undefined));
  const merged: Config = {
    ...fromEnv,
    ...given,
    dataDir,
    limits: { ...fromEnv.limits, ...limits },
    geocoder: given.geocoder ?? fromEnv.geocoder,
    nats: given.nats === undefined ? fromEnv.nats : { outageMs: read(SETTINGS.natsOutageMs, env), ...given.nats },
  };
  check(valuesOf(merged));
  // The caches must fit the memory budget (a configuration error otherwise); the node sizes them the same way.
  cacheBudgets(merged);
  return frozen(merged);
}
