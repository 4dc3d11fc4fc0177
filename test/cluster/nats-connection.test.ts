import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterLink } from '../../src/cluster/nats-connection.js';
import {
  FLIGHT_BUCKET, IDEMPOTENCY_BUCKET, JOBS_BUCKET, QUOTA_BUCKET, RATE_BUCKET, REPORTS_OBJECT_BUCKET, RESULT_STREAM, STATS_BUCKET,
  TASK_STREAM, WORKER_CONSUMER,
} from '../../src/cluster/names.js';
import { loadConfig } from '../../src/config.js';
import { UpstreamError } from '../../src/errors.js';
import { startNatsServer, type TestNatsServer } from './support/nats-server.js';

const OPTIONS = { ackWaitMs: 5_000, maxDeliver: 3, retryMs: 100 };

/** Waits until `check` holds, polling (no timing assertion: the test time-out bounds it). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 20));
}

describe('the link to NATS', () => {
  let nats: TestNatsServer;
  beforeAll(async () => {
    nats = await startNatsServer();
  });
  afterAll(async () => {
    await nats.dispose();
  });

  it('creates every stream, the workers consumer and every bucket, idempotently', async () => {
    const first = ClusterLink.start({ url: nats.url, name: 'test-1', ...OPTIONS });
    const conn = await first.ready();
    // A second node, set up after the first, with another ack wait.
    const second = ClusterLink.start({ url: nats.url, name: 'test-2', ...OPTIONS, ackWaitMs: 7_000 });
    await second.ready();
    const streams = (await conn.jsm.streams.names().next()).sort();
    expect(streams).toEqual(expect.arrayContaining([TASK_STREAM, RESULT_STREAM, `KV_${RATE_BUCKET}`, `OBJ_${REPORTS_OBJECT_BUCKET}`]));
    for (const bucket of [RATE_BUCKET, QUOTA_BUCKET, STATS_BUCKET, FLIGHT_BUCKET, JOBS_BUCKET, IDEMPOTENCY_BUCKET]) {
      expect(streams).toContain(`KV_${bucket}`);
    }
    const consumer = await conn.jsm.consumers.info(TASK_STREAM, WORKER_CONSUMER);
    // The second node's set-up updated the limits in place.
    expect(consumer.config.ack_wait).toBe(7_000 * 1_000_000);
    expect(consumer.config.max_deliver).toBe(3);
    await Promise.all([first.close(), second.close()]);
  });

  it('fails fast while NATS is down and recovers by itself when it returns', async () => {
    const link = ClusterLink.start({ url: nats.url, name: 'test-restart', ...OPTIONS });
    await link.ready();
    await nats.stop();
    await until(() => link.current() === undefined);
    expect(() => link.require()).toThrow(UpstreamError);
    await nats.start();
    const conn = await link.ready();
    expect(link.require()).toBe(conn);
    const kv = await conn.kvm.open(RATE_BUCKET);
    await kv.put('probe', 'ok');
    expect((await kv.get('probe'))?.string()).toBe('ok');
    await link.close();
  });

  it('starts while NATS is unreachable and connects once it listens', async () => {
    await nats.stop();
    const link = ClusterLink.start({ url: nats.url, name: 'test-late', ...OPTIONS });
    expect(link.current()).toBeUndefined();
    expect(() => link.require()).toThrow(/cannot be reached/);
    await nats.start();
    await link.ready();
    expect(link.current()).toBeDefined();
    await link.close();
  });
});

describe('SVC_NATS_URL', () => {
  it('is off by default and read with its limits when set', () => {
    expect(loadConfig({}).nats).toBeUndefined();
    expect(loadConfig({ SVC_NATS_URL: 'nats://a:4222, nats://b:4222', SVC_NATS_ACK_WAIT_MS: '10000' }).nats).toEqual({
      url: 'nats://a:4222, nats://b:4222', ackWaitMs: 10_000, maxDeliver: 3, outageMs: 60_000,
    });
  });

  it('refuses what is not a NATS URL and out-of-range limits, naming the variable', () => {
    expect(() => loadConfig({ SVC_NATS_URL: 'http://a:4222' })).toThrow(/SVC_NATS_URL/);
    expect(() => loadConfig({ SVC_NATS_URL: 'nats://a:4222', SVC_NATS_MAX_DELIVER: '0' })).toThrow(/SVC_NATS_MAX_DELIVER/);
    expect(() => loadConfig({ SVC_NATS_URL: 'nats://a:4222', SVC_NATS_ACK_WAIT_MS: '5' })).toThrow(/SVC_NATS_ACK_WAIT_MS/);
  });
});
