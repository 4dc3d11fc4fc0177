/**
 * Where the documentation lives, for problem `type` URIs, the OpenAPI document, the pages and the start-up banner:
 * the configured `SVC_DOCS_URL`, or by default the service's own `/docs`, an absolute URL built from the address the
 * server listens on (known only once it listens when the port is 0).
 */
import type { AddressInfo } from 'node:net';

/** Path of the pages when the service documents itself. */
const SELF_DOCS_PATH = '/docs';

/** The listening address as `net.Server.address()` gives it (null before listening, a string for a pipe). */
export type ListenAddress = AddressInfo | string | null;

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', '']);

/**
 * The absolute docs URL of a server listening on `host`:`port`. A wildcard host (every interface) is named
 * `localhost`, which reaches it from the same machine; clients elsewhere need `SVC_DOCS_URL` set to the public name.
 * IPv6 literals are bracketed.
 */
export function selfDocsUrl(host: string, port: number): string {
  const bare = host.trim().replace(/^\[(.*)\]$/, '$1');
  const name = WILDCARD_HOSTS.has(bare) ? 'localhost' : bare.includes(':') ? `[${bare}]` : bare;
  return `http://${name}:${port}${SELF_DOCS_PATH}`;
}

/** The docs URL, possibly resolved late; read `url` each time it is needed. */
export class DocsLocation {
  readonly #configured: string | undefined;
  readonly #fallback: { readonly host: string; readonly port: number };
  readonly #address: () => ListenAddress;
  #listening: string | undefined;

  /**
   * @param configured the configured URL (no trailing slash), which always wins; undefined: the service's own pages.
   * @param fallback the configured host and port, used until the server listens (e.g. requests injected in tests).
   * @param address the server's listening address, asked until it is known.
   */
  constructor(configured: string | undefined, fallback: { host: string; port: number }, address: () => ListenAddress) {
    this.#configured = configured;
    this.#fallback = fallback;
    this.#address = address;
  }

  /** True when the service documents itself (no configured URL). */
  get self(): boolean {
    return this.#configured === undefined;
  }

  /** The absolute docs URL, without trailing slash; problem types are `{url}/errors#<code>`. */
  get url(): string {
    if (this.#configured !== undefined) return this.#configured;
    if (this.#listening !== undefined) return this.#listening;
    const address = this.#address();
    if (address !== null && typeof address === 'object') return (this.#listening = selfDocsUrl(address.address, address.port));
    return selfDocsUrl(this.#fallback.host, this.#fallback.port);
  }

  /** The path the pages are served at (the configured URL's path, or `/docs`), without trailing slash. */
  get path(): string {
    return this.#configured === undefined ? SELF_DOCS_PATH : new URL(this.#configured).pathname.replace(/\/+$/, '');
  }
}
