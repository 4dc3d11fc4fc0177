/**
 * API keys never reach the log. A client may put its key in the URL (`?api_key=svc_sk_…`, a path segment); the
 * request log line then carries it. Every logged URL passes through `redactKeys`, which replaces each path segment or
 * query name or value that holds a key-shaped text (`svc_sk_` or `svc_pk_`, in any letter case, however it is
 * percent-encoded) with `[redacted]`.
 */
import type { FastifyRequest } from 'fastify';

/** What stands in a log for a segment that held a key. */
const REDACTED = '[redacted]';

const KEY_MARK = /svc_(?:sk|pk)_/i;
/** A path segment, or a query name or value: the text between the URL's delimiters. */
const SEGMENT = /[^/?&=;#]+/g;
/** Cheap test before the full pass: a key is written with `svc` or percent-encoded. */
const MAY_HOLD_KEY = /svc|%/i;

/** `text` percent-decoded until it no longer changes (a few rounds; double encoding must not hide a key). */
function decoded(text: string): string {
  let current = text.replace(/\+/g, ' ');
  for (let round = 0; round < 4 && current.includes('%'); round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      // A stray `%`: decode the well-formed escapes only.
      next = current.replace(/%[0-9a-f]{2}/gi, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));
    }
    if (next === current) break;
    current = next;
  }
  return current;
}

/** `url` with every segment that holds a key-shaped text replaced by `[redacted]`. */
export function redactKeys(url: string): string {
  if (!MAY_HOLD_KEY.test(url)) return url;
  return url.replace(SEGMENT, (segment) => (KEY_MARK.test(decoded(segment)) ? REDACTED : segment));
}

/**
 * The logger's `req` serializer: Fastify's default fields, with keys redacted from the URL and the Host. Pino applies
 * it to every `req` field logged, the stats fast path's plain `{method, url}` included.
 */
export function requestLogSerializer(request: Partial<Pick<FastifyRequest, 'method' | 'url' | 'host' | 'ip' | 'socket'>>): Record<string, unknown> {
  return {
    method: request.method,
    url: request.url === undefined ? undefined : redactKeys(request.url),
    host: request.host === undefined ? undefined : redactKeys(request.host),
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
