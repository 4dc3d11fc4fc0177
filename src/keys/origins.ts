/**
 * Origin allowlists of publishable keys. Entries are origins (`scheme://host[:port]`, as browsers send them in the
 * `Origin` header) or a wildcard `scheme://*.domain[:port]` that matches any subdomain of `domain` at any depth but not
 * `domain` itself. Matching is exact after normalisation (lower case, default port dropped).
 */
import { ValidationError } from '../errors.js';

const WILDCARD = /^(https?):\/\/\*\.([a-z0-9-]+(?:\.[a-z0-9-]+)*)(:\d{1,5})?$/;

function parseOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return undefined;
  return `${url.protocol}//${url.host}`;
}

/** Normalises one allowlist entry; throws a ValidationError for anything that is not an origin or a wildcard. */
export function normalizeOriginEntry(entry: string): string {
  const trimmed = entry.trim().toLowerCase().replace(/\/$/, '');
  const wild = WILDCARD.exec(trimmed);
  if (wild) {
    const port = wild[3] && !((wild[1] === 'http' && wild[3] === ':80') || (wild[1] === 'https' && wild[3] === ':443')) ? wild[3] : '';
    return `${wild[1]}://*.${wild[2]}${port}`;
  }
  const origin = parseOrigin(trimmed);
  if (origin === undefined || trimmed.includes('*')) {
    throw new ValidationError(`'${entry}' is not an origin: use scheme://host[:port] or scheme://*.domain[:port].`);
  }
  return origin;
}

/** Whether the `Origin` header value is allowed by the (normalised) allowlist. `null` and malformed origins never are. */
export function originAllowed(originHeader: string, allowlist: readonly string[]): boolean {
  const origin = parseOrigin(originHeader.trim().toLowerCase());
  if (origin === undefined) return false;
  for (const entry of allowlist) {
    if (!entry.includes('*')) {
      if (entry === origin) return true;
      continue;
    }
    const wild = WILDCARD.exec(entry);
    if (!wild) continue;
    const url = new URL(origin);
    const port = wild[3] ?? '';
    if (url.protocol === `${wild[1]}:` && (url.port ? `:${url.port}` : '') === port && url.hostname.endsWith(`.${wild[2]}`)) {
      return true;
    }
  }
  return false;
}
