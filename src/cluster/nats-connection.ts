/**
 * The link of one process (API node, worker, precompute coordinator) to the NATS JetStream cluster.
 *
 * Contract: `ClusterLink.start` returns at once and connects in the background, retrying forever, so a node starts
 * even while NATS is down and recovers by itself when it returns. `require()` hands out the live connection or throws
 * `UpstreamError` (502) — callers never wait on a link that is down. Every stream, consumer and bucket the cluster
 * uses is created idempotently on each (re)connection, so a nats-server that lost its store is set up again.
 *
 * While the server is away (restart, network) the client reconnects by itself with a growing pause (`retryMs`, doubled
 * up to `maxRetryMs`); `downSince()` says since when the link has been down and `onChange` tells those that ride out
 * an outage (a precompute coordinator, a worker holding a result) when it went down and came back, set up again.
 */
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { Objm } from '@nats-io/obj';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { UpstreamError } from '../errors.js';
import { SILENT_LOGGER, type Logger } from '../util/logger.js';
import { ensureClusterInfrastructure, type InfrastructureOptions } from './infrastructure.js';

/** The handles of a live connection. */
export interface ClusterConnection {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly kvm: Kvm;
  readonly objm: Objm;
}

/** Options of `ClusterLink.start`. */
export interface ClusterLinkOptions extends InfrastructureOptions {
  /** `nats://host:port`, or several separated by commas (the servers of one NATS cluster). */
  readonly url: string;
  /** Connection name shown by the server's monitoring (e.g. `svc-api 3f2a…`, `svc-worker 9c1e…`). */
  readonly name: string;
  /** First pause between connection attempts, ms (default 500); doubled on each failed attempt. */
  readonly retryMs?: number;
  /** Longest pause between connection attempts, ms (default 2000, at least `retryMs`). */
  readonly maxRetryMs?: number;
  /** Where the link reports state changes. */
  readonly log?: Logger;
}

/** A process's connection to NATS, kept alive in the background. */
export class ClusterLink {
  #conn: ClusterConnection | undefined;
  /** The client connection, also while it reconnects (when `#conn` is not handed out), so `close` can end it. */
  #nc: NatsConnection | undefined;
  #closed = false;
  #waiters: Array<(conn: ClusterConnection) => void> = [];
  readonly #listeners = new Set<(conn: ClusterConnection | undefined) => void>();
  /** When the connection last went down (ms since the epoch), undefined while it is up or before it first was. */
  #downSince: number | undefined;
  /** Failed reconnection attempts since the connection was lost (the pause grows with them). */
  #attempts = 0;
  #outages = 0;
  readonly #loop: Promise<void>;

  private constructor(private readonly options: ClusterLinkOptions) {
    this.#loop = this.#run();
  }

  /** Starts connecting in the background; never throws for an unreachable server. */
  static start(options: ClusterLinkOptions): ClusterLink {
    return new ClusterLink(options);
  }

  /** The live connection, or undefined while NATS cannot be reached. */
  current(): ClusterConnection | undefined {
    return this.#conn;
  }

  /** The live connection; throws `UpstreamError` while NATS cannot be reached. */
  require(): ClusterConnection {
    if (this.#conn === undefined) throw new UpstreamError('The compute cluster (NATS) cannot be reached; retrying is reasonable.');
    return this.#conn;
  }

  /** Since when (ms since the epoch) the link has been down after being up; undefined while it is up. */
  downSince(): number | undefined {
    return this.#downSince;
  }

  /** Times the connection was lost since the start: an operation that saw this change lived through an outage. */
  get outages(): number {
    return this.#outages;
  }

  /**
   * Calls `listener` each time the connection is withdrawn (undefined) or handed out again (set up anew, after a
   * reconnection). Returns the function that removes it.
   */
  onChange(listener: (conn: ClusterConnection | undefined) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves with the connection once it is up (at once when it is); for start-up of workers and tools. */
  ready(): Promise<ClusterConnection> {
    if (this.#conn !== undefined) return Promise.resolve(this.#conn);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Drains and closes the connection; the link does not reconnect afterwards. */
  async close(): Promise<void> {
    this.#closed = true;
    const connected = this.#conn !== undefined;
    const nc = this.#nc;
    this.#conn = undefined;
    // A connection that is reconnecting cannot drain (and would keep reconnecting, holding the process open): close it.
    if (nc !== undefined && !nc.isClosed()) await (connected ? nc.drain() : nc.close()).catch(() => nc.close());
    await this.#loop;
  }

  /** Connects, sets up, follows status until the connection closes, and starts over — until `close()`. */
  async #run(): Promise<void> {
    const log = this.options.log ?? SILENT_LOGGER;
    const retryMs = this.options.retryMs ?? 500;
    const maxRetryMs = Math.max(retryMs, this.options.maxRetryMs ?? 2_000);
    while (!this.#closed) {
      let nc: NatsConnection | undefined;
      try {
        nc = await connect({
          servers: this.options.url.split(',').map((s) => s.trim()).filter((s) => s !== ''),
          name: this.options.name,
          maxReconnectAttempts: -1,
          reconnectTimeWait: retryMs,
          // The pause before each attempt once every server was tried: doubled per attempt up to maxRetryMs.
          reconnectDelayHandler: () => Math.min(maxRetryMs, retryMs * 2 ** Math.min(10, this.#attempts++)),
          timeout: 2_000,
        });
        this.#nc = nc;
        const conn = await this.#setUp(nc);
        if (this.#closed) {
          await nc.close();
          return;
        }
        this.#handOut(conn);
        log.info({ server: nc.getServer() }, 'connected to NATS');
        await this.#follow(conn, log);
      } catch (err) {
        if (nc !== undefined && !nc.isClosed()) await nc.close().catch(() => {});
        if (!this.#closed) log.warn({ err: (err as Error).message }, 'NATS unreachable; retrying');
      }
      this.#withdraw();
      this.#nc = undefined;
      if (!this.#closed) await new Promise((r) => setTimeout(r, retryMs));
    }
  }

  async #setUp(nc: NatsConnection): Promise<ClusterConnection> {
    const jsm = await jetstreamManager(nc);
    const conn: ClusterConnection = { nc, js: jetstream(nc), jsm, kvm: new Kvm(nc), objm: new Objm(nc) };
    await ensureClusterInfrastructure(conn, this.options);
    return conn;
  }

  /**
   * Tracks the connection: while the client reconnects it is not handed out (so requests fail fast rather than queue
   * behind a dead socket); after a reconnection the infrastructure is ensured again before it is, retried while the
   * connection stays up (a restarted server may still be recovering its streams).
   */
  async #follow(conn: ClusterConnection, log: Logger): Promise<void> {
    let generation = 0;
    for await (const status of conn.nc.status()) {
      if (this.#closed) break;
      if (status.type === 'disconnect') {
        generation++;
        this.#withdraw();
        log.warn({}, 'disconnected from NATS; reconnecting');
      } else if (status.type === 'reconnect') {
        const mine = ++generation;
        void this.#setUpAgain(conn, log, () => mine === generation && !this.#closed);
      }
    }
  }

  /** Ensures the infrastructure after a reconnection, retrying while `current()` holds, then hands `conn` out. */
  async #setUpAgain(conn: ClusterConnection, log: Logger, current: () => boolean): Promise<void> {
    const retryMs = this.options.retryMs ?? 500;
    while (current()) {
      try {
        await ensureClusterInfrastructure(conn, this.options);
        if (!current()) return;
        const down = this.#downSince;
        this.#handOut(conn);
        log.info({ server: conn.nc.getServer(), down_s: down === undefined ? 0 : Math.round((Date.now() - down) / 100) / 10 }, 'reconnected to NATS');
        return;
      } catch (err) {
        log.warn({ err: (err as Error).message }, 'NATS set-up failed after reconnecting; retrying');
        await new Promise((r) => setTimeout(r, retryMs));
      }
    }
  }

  /** Hands `conn` out: to `require()`, to those awaiting `ready()`, and to the listeners. */
  #handOut(conn: ClusterConnection): void {
    this.#conn = conn;
    this.#downSince = undefined;
    this.#attempts = 0;
    for (const resolve of this.#waiters.splice(0)) resolve(conn);
    for (const listener of [...this.#listeners]) listener(conn);
  }

  /** Stops handing the connection out (it is down or being replaced), once per outage. */
  #withdraw(): void {
    const wasUp = this.#conn !== undefined;
    this.#conn = undefined;
    if (!wasUp || this.#closed) return;
    this.#downSince = Date.now();
    this.#outages++;
    for (const listener of [...this.#listeners]) listener(undefined);
  }
}
