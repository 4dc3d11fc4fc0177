/**
 * Where datasets are read from: a directory, or a base URL over HTTP(S) (a static file server, or an object store's
 * public or presigned GETs) serving the same files under the same relative paths — `${url}/${dataset}/.zmetadata`,
 * `${url}/${dataset}/no2/0/3/4`. Only reading works over HTTP; writing (generation, import, precompute output) needs a
 * directory. "Absent" is a missing file or an HTTP 404; any other failure is an error carrying a `code` (an errno code,
 * or `HTTP <status>`) so the callers' messages name it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** How long one HTTP read may take before it fails (a chunk is at most a few megabytes). */
const HTTP_READ_TIMEOUT_MS = 30_000;

/** Whether `location` is an HTTP(S) base URL rather than a directory. */
export function isDataUrl(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

/** `location` and relative `parts` joined: URL segments for a URL, a path for a directory. */
export function locationJoin(location: string, ...parts: string[]): string {
  if (!isDataUrl(location)) return join(location, ...parts);
  const rel = parts.map((p) => p.replace(/^\/+|\/+$/g, '')).filter((p) => p !== '');
  return [location.replace(/\/+$/, ''), ...rel].join('/');
}

/** An error of a read, with the code callers put in their messages. */
function readError(message: string, code: string, cause?: unknown): Error & { code: string } {
  return Object.assign(new Error(message, { cause }), { code });
}

/** The bytes at `url`, or undefined on 404; other statuses and network failures throw with a `code`. */
export async function fetchBytes(url: string): Promise<Uint8Array | undefined> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(HTTP_READ_TIMEOUT_MS) });
  } catch (cause) {
    // fetch() wraps the network error ("fetch failed"); its cause holds the errno code or the reason.
    const inner = (cause as { cause?: { code?: string; message?: string } }).cause;
    const code = inner?.code ?? inner?.message ?? (cause as Error).message;
    throw readError(`GET ${url} failed (${code})`, code, cause);
  }
  if (res.status === 404) {
    await res.body?.cancel();
    return undefined;
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw readError(`GET ${url} answered ${res.status}`, `HTTP ${res.status}`);
  }
  // A fresh zero-offset buffer, so codecs can lay typed views of any element size over it.
  return new Uint8Array(await res.arrayBuffer());
}

/** The bytes at `location` (file or URL), or undefined when it is absent. */
export async function readLocationBytes(location: string): Promise<Uint8Array | undefined> {
  if (isDataUrl(location)) return fetchBytes(location);
  try {
    return new Uint8Array(await readFile(location));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The text at `location` (file or URL), or undefined when it is absent. */
export async function readLocationText(location: string): Promise<string | undefined> {
  const bytes = await readLocationBytes(location);
  return bytes === undefined ? undefined : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
