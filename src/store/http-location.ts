/**
 * The HTTP(S) back end of the storage seam (data-location.ts): a base URL serving a store's files as static files. A
 * key maps to `${root}${key}`; 404 is absence, as ENOENT is for files, so the chunk manifest check above tells a
 * missing chunk from a fill value exactly as for a directory. Any other status, and network failures, throw with a
 * `code` (`HTTP <status>`, or the errno code) and are faults of the way to the data, not damage. There are no
 * directories and no listings over HTTP.
 */
import type { DataLocation, DataLocationBackEnd, KeyStoreOptions, LocationState, RangeSource } from './data-location.js';
import type { KeyStore } from './manifest-store.js';

/** How long one HTTP read may take before it fails (a chunk is at most a few megabytes). */
const HTTP_READ_TIMEOUT_MS = 30_000;

/** An error of a read, with the code callers put in their messages. */
function readError(message: string, code: string, cause?: unknown): Error & { code: string } {
  return Object.assign(new Error(message, { cause }), { code });
}

/** The answer to `method url`, or undefined on 404; other statuses and network failures throw with a `code`. */
async function request(method: 'GET' | 'HEAD', url: string): Promise<Response | undefined> {
  let res: Response;
  try {
    res = await fetch(url, { method, signal: AbortSignal.timeout(HTTP_READ_TIMEOUT_MS) });
  } catch (cause) {
    // fetch() wraps the network error ("fetch failed"); its cause holds the errno code or the reason.
    const inner = (cause as { cause?: { code?: string; message?: string } }).cause;
    const code = inner?.code ?? inner?.message ?? (cause as Error).message;
    throw readError(`${method} ${url} failed (${code})`, code, cause);
  }
  if (res.status === 404) {
    await res.body?.cancel();
    return undefined;
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw readError(`${method} ${url} answered ${res.status}`, `HTTP ${res.status}`);
  }
  return res;
}

/** The bytes at `url`, or undefined on 404. */
async function fetchBytes(url: string): Promise<Uint8Array | undefined> {
  const res = await request('GET', url);
  // A fresh zero-offset buffer, so codecs can lay typed views of any element size over it.
  return res === undefined ? undefined : new Uint8Array(await res.arrayBuffer());
}

/** A URL over HTTP(S), without trailing slashes. */
class HttpLocation implements DataLocation {
  readonly failureIsDamage = false;
  readonly absentAs = 'HTTP 404';

  constructor(readonly href: string) {}

  join(...parts: string[]): DataLocation {
    const rel = parts.map((p) => p.replace(/^\/+|\/+$/g, '')).filter((p) => p !== '');
    return new HttpLocation([this.href, ...rel].join('/'));
  }

  absolute(): DataLocation {
    return this;
  }

  read(): Promise<Uint8Array | undefined> {
    return fetchBytes(this.href);
  }

  async state(): Promise<LocationState> {
    return 'unknown';
  }

  async exists(): Promise<boolean> {
    const res = await request('HEAD', this.href);
    await res?.body?.cancel();
    return res !== undefined;
  }

  async list(): Promise<undefined> {
    return undefined;
  }

  keyStore(_options?: KeyStoreOptions): KeyStore {
    // Reads cannot block the thread over HTTP, and a response's size is its own: the options do not apply.
    return { get: (key) => fetchBytes(`${this.href}${key}`) };
  }

  async openRanges(): Promise<RangeSource | undefined> {
    // No range requests: the file is read whole, once, and the ranges are views of it.
    const all = await fetchBytes(this.href);
    if (all === undefined) return undefined;
    return { size: all.byteLength, read: (offset, length) => all.subarray(offset, offset + length), close: () => {} };
  }
}

/** `http://` and `https://` URLs. */
export const HTTP_LOCATIONS: DataLocationBackEnd = Object.freeze({
  claims: (location: string) => /^https?:\/\//i.test(location),
  open: (location: string): DataLocation => new HttpLocation(location.replace(/\/+$/, '')),
});
