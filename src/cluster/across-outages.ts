/**
 * Doing one thing on NATS across a broker restart: a worker that finished a task while the server was away keeps the
 * result and delivers it once the link is back, instead of dropping it and letting the task run again elsewhere.
 *
 * Contract: `acrossOutages` runs `attempt` on the live connection. A failure while the link stayed up throughout is
 * the attempt's own and is rethrown at once; a failure of an attempt the link was lost during (even if it is back
 * already: a request sent just before a crash is never answered) is retried on the connection the link hands out,
 * until `boundMs` after the first such failure, then rethrown.
 */
import type { JsMsg } from '@nats-io/jetstream';
import type { ClusterConnection, ClusterLink } from './nats-connection.js';

/** Resolves with the link's connection once it is up, or undefined once `deadline` (ms since the epoch) passed. */
async function upBefore(link: ClusterLink, deadline: number): Promise<ClusterConnection | undefined> {
  const now = link.current();
  if (now !== undefined) return now;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()))));
  try {
    return await Promise.race([link.ready(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `attempt` on the live connection, again after each outage, for up to `boundMs` of outages. */
export async function acrossOutages<T>(link: ClusterLink, boundMs: number, attempt: (conn: ClusterConnection) => Promise<T>): Promise<T> {
  let deadline: number | undefined;
  let lastError: unknown = new Error('The compute cluster (NATS) cannot be reached.');
  for (;;) {
    const conn = deadline === undefined ? link.current() : await upBefore(link, deadline);
    if (conn === undefined) {
      if (deadline !== undefined) throw lastError;
      deadline = Date.now() + boundMs;
      continue;
    }
    const outages = link.outages;
    try {
      return await attempt(conn);
    } catch (err) {
      if (link.outages === outages && link.current() === conn && !conn.nc.isClosed()) throw err;
      lastError = err;
      deadline ??= Date.now() + boundMs;
      if (Date.now() >= deadline) throw err;
    }
  }
}

/** The acknowledgement a worker sends for a finished task (the JetStream protocol's `+ACK`). */
const ACK = new TextEncoder().encode('+ACK');

/**
 * Acknowledges `msg` and waits for the server to confirm it, on `conn` (a reconnected client's subscription to the
 * consumer is gone, but the acknowledgement subject still names the delivery). Rejects when no confirmation comes.
 */
export async function confirmAck(conn: ClusterConnection, msg: JsMsg, timeoutMs = 5_000): Promise<void> {
  // The delivery's reply subject is its acknowledgement subject; JsMsg has it, its type does not say so.
  const { reply } = msg as JsMsg & { readonly reply?: string };
  if (!reply) throw new Error('The task delivery has no acknowledgement subject.');
  await conn.nc.request(reply, ACK, { timeout: timeoutMs });
}
