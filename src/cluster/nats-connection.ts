/**
 * The link of one process (API node, worker, precompute coordinator) to the NATS JetStream cluster.
 *
 * Contract: `ClusterLink.start` returns at once and connects in the background, retrying forever, so a node starts
 * even while NATS is down and recovers by itself when it returns. `require()` hands out the live connection or throws
 * `UpstreamError` (502) — callers never wait on a link that is down. Every stream, consumer and bucket the cluster
 * uses is created idempotently on each (re)connection, so a nats-server that lost its store is set up again.
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
  /** Pause between connection attempts, ms (default 500). */
  readonly retryMs?: number;
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
    while (!this.#closed) {
      let nc: NatsConnection | undefined;
      try {
        nc = await connect({
          servers: this.options.url.split(',').map((s) => s.trim()).filter((s) => s !== ''),
          name: this.options.name,
          maxReconnectAttempts: -1,
          reconnectTimeWait: retryMs,
          timeout: 2_000,
        });
        this.#nc = nc;
        const conn = await this.#setUp(nc);
        if (this.#closed) {
          await nc.close();
          return;
        }
        this.#conn = conn;
        log.info({ server: nc.getServer() }, 'connected to NATS');
        for (const resolve of this.#waiters.splice(0)) resolve(conn);
        await this.#follow(conn, log);
      } catch (err) {
        if (nc !== undefined && !nc.isClosed()) await nc.close().catch(() => {});
        if (!this.#closed) log.warn({ err: (err as Error).message }, 'NATS unreachable; retrying');
      }
      this.#conn = undefined;
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
   * behind a dead socket); after a reconnection the infrastructure is ensured again before it is.
   */
  async #follow(conn: ClusterConnection, log: Logger): Promise<void> {
    for await (const status of conn.nc.status()) {
      if (this.#closed) break;
      if (status.type === 'disconnect') {
        this.#conn = undefined;
        log.warn({}, 'disconnected from NATS; reconnecting');
      } else if (status.type === 'reconnect') {
        try {
          await ensureClusterInfrastructure(conn, this.options);
          this.#conn = conn;
          log.info({ server: conn.nc.getServer() }, 'reconnected to NATS');
          for (const resolve of this.#waiters.splice(0)) resolve(conn);
        } catch (err) {
          log.warn({ err: (err as Error).message }, 'NATS set-up failed after reconnecting');
        }
      }
    }
  }
}
