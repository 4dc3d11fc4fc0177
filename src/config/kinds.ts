/**
 * Kinds of setting values: how a variable's text becomes a value, which values are accepted, and how the docs state
 * them. Every refusal is a `ValidationError` whose message names the variable (`Invalid configuration: SVC_PORT must
 * be …`), the same whether the value came from the environment or from an override (a CLI flag, a test).
 */
import { resolve } from 'node:path';
import { ValidationError } from '../errors.js';

/** One kind of value, `T` (which includes `undefined` for a setting that may stay unset). */
export interface Kind<T> {
  /** The value of a variable's text; undefined when the text gives none (blank), so the default applies. */
  parse(text: string, name: string): T | undefined;
  /** Throws a ValidationError naming the variable unless `value` is accepted. */
  check(value: T, name: string): void;
  /** The accepted value as it is kept, applied after the checks (URLs lose their trailing slashes). */
  normalize?(value: T): T;
  /** The accepted values, for the docs table (Markdown). */
  readonly allowed: string;
}

/** Throws the configuration error: `name` `rule`, with the refused value quoted. */
export function fail(name: string, rule: string, value: unknown): never {
  throw new ValidationError(`Invalid configuration: ${name} ${rule} (got ${JSON.stringify(value)}).`);
}

/** A value an HTTP header carries as it is: printable ASCII, not blank. */
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** Text that is blank gives no value. */
const trimmed = (text: string): string | undefined => text.trim() || undefined;

/** An integer from `min` to `max`; the text must be a whole number (a sign allowed, so `-1` is refused by range). */
export function integer(min: number, max: number): Kind<number> {
  return {
    parse(text, name) {
      if (text.trim() === '') return undefined;
      if (!/^-?\d+$/.test(text.trim())) fail(name, 'must be an integer', text);
      return Number(text.trim());
    },
    check(value, name) {
      if (!Number.isInteger(value) || value < min || value > max) fail(name, `must be an integer from ${min} to ${max}`, value);
    },
    allowed: `${min}–${max}`,
  };
}

/** `kind`, or no value at all (the setting stays unset and something else decides). */
export function optional<T>(kind: Kind<T>): Kind<T | undefined> {
  return {
    parse: (text, name) => kind.parse(text, name),
    check(value, name) {
      if (value !== undefined) kind.check(value, name);
    },
    allowed: kind.allowed,
  };
}

/** Text that is not blank (a host name, a file); `path` resolves it against the working directory. */
export function text(options: { path?: boolean; allowed: string }): Kind<string> {
  return {
    parse: (raw) => {
      const value = trimmed(raw);
      return value !== undefined && options.path ? resolve(value) : value;
    },
    check(value, name) {
      if (value.trim() === '') fail(name, 'must not be empty', value);
    },
    allowed: options.allowed,
  };
}

/** Throws unless `value` is an absolute http(s) URL without query or fragment; returns it without trailing slashes. */
export function checkHttpUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(name, 'must be an absolute http(s) URL', value);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(name, 'must be an absolute http(s) URL', value);
  if (url.search !== '' || url.hash !== '') fail(name, 'must not carry a query or fragment', value);
  return value.replace(/\/+$/, '');
}

/** An optional absolute http(s) URL; with `stripSlashes` kept without trailing slashes (it is a prefix of others). */
export function httpUrl(options: { stripSlashes: boolean }): Kind<string | undefined> {
  const strip = (value: string) => (options.stripSlashes ? value.replace(/\/+$/, '') : value);
  return {
    parse: (raw) => strip(raw.trim()) || undefined,
    check(value, name) {
      if (value !== undefined) checkHttpUrl(name, value);
    },
    ...(options.stripSlashes ? { normalize: (value: string | undefined) => value?.replace(/\/+$/, '') } : {}),
    allowed: 'absolute http(s) URL, a path allowed, no query or fragment',
  };
}

/** One of a fixed list of words. */
export function oneOf(values: readonly string[]): Kind<string> {
  return {
    parse: trimmed,
    check(value, name) {
      if (!values.includes(value)) fail(name, `must be one of ${values.join(', ')}`, value);
    },
    allowed: values.map((v) => `\`${v}\``).join(', '),
  };
}

/** Printable ASCII text (sent as an HTTP header). */
export function printableText(): Kind<string> {
  return {
    parse: trimmed,
    check(value, name) {
      if (!PRINTABLE_ASCII.test(value)) fail(name, 'must be printable ASCII text', value);
    },
    allowed: 'printable ASCII',
  };
}

/**
 * An optional secret of at least `minChars` printable ASCII characters, taken exactly as given (not trimmed). Its
 * refusal never repeats the value.
 */
export function secret(minChars: number): Kind<string | undefined> {
  return {
    parse: (raw) => raw || undefined,
    check(value, name) {
      if (value !== undefined && (value.length < minChars || !PRINTABLE_ASCII.test(value))) {
        throw new ValidationError(`Invalid configuration: ${name} must be at least ${minChars} printable ASCII characters.`);
      }
    },
    allowed: `at least ${minChars} printable ASCII characters`,
  };
}

/** Optional NATS server URLs, several separated by commas (the servers of one cluster). */
export function natsServers(): Kind<string | undefined> {
  return {
    parse: trimmed,
    check(value, name) {
      if (value === undefined) return;
      for (const server of value.split(',')) {
        if (!/^(nats|tls):\/\/[^\s/]+$/.test(server.trim())) fail(name, 'must be nats://host:port (several separated by commas)', value);
      }
    },
    allowed: '`nats://host:port` or `tls://host:port`, several separated by commas',
  };
}
