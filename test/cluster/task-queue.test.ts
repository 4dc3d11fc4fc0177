/**
 * The task queue and the worker loop against a real nats-server, with handlers of test kinds: results and errors as
 * data, hand-back and redelivery, the last delivery, the max-deliveries advisory, deadlines, graceful stop, submit,
 * resuming requesters, and NATS down at the start or later.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ClusterLink } from '../../src/cluster/nats-connection.js';
import { TASK_STREAM, WORKER_CONSUMER } from '../../src/cluster/names.js';
import { NatsTaskQueue } from '../../src/cluster/task-queue.js';
import type { TaskHandler } from '../../src/cluster/task-types.js';
import { startWorkerLoop, type WorkerLoop } from '../../src/cluster/worker-loop.js';
import { OutsideCoverageError, UpstreamError, UpstreamTimeoutError } from '../../src/errors.js';
import { startNatsServer, type TestNatsServer } from './support/nats-server.js';

const text = (s: string) => new TextEncoder().encode(s);
const read = (b: Uint8Array) => new TextDecoder().decode(b);

/** Waits until `check` holds, polling (the test time-out bounds it; no timing assertion). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 20));
}

interface Node {
  link: ClusterLink;
  queue: NatsTaskQueue;
  close(): Promise<void>;
}

function node(url: string, limits: { ackWaitMs: number; maxDeliver: number }, requesterId?: string): Node {
  const link = ClusterLink.start({ url, name: 'test', retryMs: 100, ...limits });
  const queue = new NatsTaskQueue({ link, defaultTimeoutMs: 30_000, ...(requesterId ? { requesterId } : {}) });
  return { link, queue, close: async () => { queue.close(); await link.close(); } };
}

function worker(url: string, limits: { ackWaitMs: number; maxDeliver: number }, handlers: Record<string, TaskHandler>, graceMs = 5_000) {
  const link = ClusterLink.start({ url, name: 'test-worker', retryMs: 100, ...limits });
  const loop = startWorkerLoop({ link, handlers: new Map(Object.entries(handlers)), concurrency: 2, workerId: 'w', graceMs });
  return { link, loop, stop: async () => { await loop.stop(); await link.close(); } };
}

describe('task queue and worker loop', () => {
  const limits = { ackWaitMs: 1_000, maxDeliver: 3 };
  let nats: TestNatsServer;
  let api: Node;
  let w: { loop: WorkerLoop; stop(): Promise<void> };
  const deliveries = new Map<string, number[]>();
  const submitted: string[] = [];
  let refusals = 0;
  const seen = (id: string, n: number) => deliveries.set(id, [...(deliveries.get(id) ?? []), n]);

  beforeAll(async () => {
    nats = await startNatsServer();
    api = node(nats.url, limits, 'api-test');
    await api.link.ready();
    w = worker(nats.url, limits, {
      echo: async (p) => text(`echo ${read(p)}`),
      refuse: async () => {
        refusals++;
        throw new OutsideCoverageError('(51.5, 4.3) is outside every covered area.'); },
      flaky: async (p, ctx) => {
        seen(ctx.taskId, ctx.deliveryCount);
        if (ctx.deliveryCount === 1) throw new Error('lost the thread');
        return text(`ok ${read(p)} on delivery ${ctx.deliveryCount}`);
      },
      broken: async (_p, ctx) => {
        seen(ctx.taskId, ctx.deliveryCount);
        throw new Error('always broken');
      },
      long: async (_p, ctx) => {
        seen(ctx.taskId, ctx.deliveryCount);
        // Two and a half times ack_wait: only the worker's progress reports keep NATS from delivering it again.
        await new Promise((r) => setTimeout(r, 2_500));
        return text(`done on delivery ${ctx.deliveryCount}`);
      },
      record: async (p) => {
        submitted.push(read(p));
        return new Uint8Array(0);
      },
    });
  }, 30_000);
  afterAll(async () => {
    await w?.stop();
    await api?.close();
    await nats?.dispose();
  });

  it('delivers a result to the requester that queued the task', async () => {
    expect(read(await api.queue.request('echo', text('hello')))).toBe('echo hello');
    expect(api.queue.pending).toBe(0);
  });

  it('delivers a ServiceError as the answer, once (the task is acknowledged, not retried)', async () => {
    const err = await api.queue.request('refuse', text(''), { id: 'refuse-1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutsideCoverageError);
    expect((err as Error).message).toContain('outside every covered area');
    const { jsm } = api.link.require();
    // Acknowledged right after the result was delivered, and never delivered again.
    await until(async () => (await jsm.consumers.info(TASK_STREAM, WORKER_CONSUMER)).num_ack_pending === 0);
    expect((await jsm.consumers.info(TASK_STREAM, WORKER_CONSUMER)).num_redelivered).toBe(0);
    expect(refusals).toBe(1);
  });

  it('hands a task back after an unexpected failure; the next delivery answers', async () => {
    expect(read(await api.queue.request('flaky', text('x'), { id: 'flaky-1' }))).toBe('ok x on delivery 2');
    expect(deliveries.get('flaky-1')).toEqual([1, 2]);
  });

  it('delivers the failure on the last delivery instead of looping', async () => {
    const err = await api.queue.request('broken', text(''), { id: 'broken-1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as Error).message).toMatch(/failed on 3 deliveries: always broken/);
    expect(deliveries.get('broken-1')).toEqual([1, 2, 3]);
  });

  it('keeps a task that runs longer than ack_wait from being delivered again (progress reports)', async () => {
    expect(read(await api.queue.request('long', text(''), { id: 'long-1' }))).toBe('done on delivery 1');
    expect(deliveries.get('long-1')).toEqual([1]);
  });

  it('runs submitted tasks without a requester', async () => {
    await api.queue.submit('record', text('job-1'), { id: 'job-1' });
    await until(() => submitted.includes('job-1'));
  });

  it('queues a task published twice with the same id once; a resumed requester reads the stored result', async () => {
    expect(read(await api.queue.request('echo', text('once'), { id: 'stable-1' }))).toBe('echo once');
    const resumed = node(nats.url, limits, 'api-test');
    await resumed.link.ready();
    // The same id within the duplicate window: not queued again, the stored result answers.
    expect(read(await resumed.queue.request('echo', text('again'), { id: 'stable-1' }))).toBe('echo once');
    await resumed.close();
  });

  it('refuses task ids that are not one subject token', async () => {
    await expect(api.queue.request('echo', text(''), { id: 'a.b' })).rejects.toThrow(/task id/);
  });
});

describe('a task nobody finishes', () => {
  let nats: TestNatsServer;
  let api: Node;
  beforeAll(async () => {
    nats = await startNatsServer();
    api = node(nats.url, { ackWaitMs: 1_000, maxDeliver: 2 });
    await api.link.ready();
  }, 30_000);
  afterAll(async () => {
    await api?.close();
    await nats?.dispose();
  });

  it('times out with UpstreamTimeoutError when no worker answers by the deadline', async () => {
    const err = await api.queue.request('echo', text(''), { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamTimeoutError);
    // Drain what the time-out left queued, so the next test starts empty.
    await api.link.require().jsm.streams.purge(TASK_STREAM);
  });

  it('fails with a clear error once the task reached max_deliver (workers died holding it each time)', async () => {
    const { js } = api.link.require();
    let settled = false;
    const pending = api.queue.request('echo', text('doomed'), { id: 'doomed-1' }).catch((e: unknown) => e)
      .finally(() => (settled = true));
    // A "worker" that takes the task and dies without acknowledging it, on every delivery; it keeps asking for more
    // (as live workers do), which is when the server notices the limit and publishes the advisory.
    const consumer = await js.consumers.get(TASK_STREAM, WORKER_CONSUMER);
    const taken: number[] = [];
    while (!settled) {
      const msg = await consumer.next({ expires: 1_500 });
      if (msg !== null) taken.push(msg.info.deliveryCount);
    }
    expect(taken).toEqual([1, 2]);
    const err = await pending;
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as Error).message).toMatch(/failed on 2 deliveries/);
  });
});

describe('graceful stop of a worker', () => {
  let nats: TestNatsServer;
  let api: Node;
  const limits = { ackWaitMs: 30_000, maxDeliver: 3 };
  beforeAll(async () => {
    nats = await startNatsServer();
    api = node(nats.url, limits);
    await api.link.ready();
  }, 30_000);
  afterAll(async () => {
    await api?.close();
    await nats?.dispose();
  });

  it('hands back a task still running after the grace period; another worker takes it at once (not after ack_wait)', async () => {
    let started = false;
    const slow = worker(nats.url, limits, {
      slow: (_p, ctx) => {
        started = true;
        return new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error)));
      },
    }, 50);
    const answer = api.queue.request('slow', text(''), { timeoutMs: 20_000 });
    await until(() => started);
    await slow.stop();
    const other = worker(nats.url, limits, { slow: async (_p, ctx) => text(`delivery ${ctx.deliveryCount}`) });
    // ack_wait is 30 s and the test time-out 20 s: only the hand-back brings it back in time. (The server may count
    // the hand-back as no delivery when the stopped worker's last pull request had already taken it again.)
    expect(read(await answer)).toMatch(/^delivery \d$/);
    await other.stop();
  }, 20_000);

  it('finishes a task in hand within the grace period before stopping', async () => {
    let release: () => void = () => {};
    let started = false;
    const w = worker(nats.url, limits, {
      held: async () => {
        started = true;
        await new Promise<void>((r) => (release = r));
        return text('finished');
      },
    }, 20_000);
    const answer = api.queue.request('held', text(''));
    await until(() => started);
    const stopped = w.stop();
    release();
    await stopped;
    expect(read(await answer)).toBe('finished');
  });
});

describe('NATS unreachable', () => {
  let nats: TestNatsServer;
  let api: Node | undefined;
  afterEach(async () => {
    await api?.close();
  });
  beforeAll(async () => {
    nats = await startNatsServer();
  });
  afterAll(async () => {
    await nats?.dispose();
  });

  it('fails requests at once while NATS is down at the start, and serves once it is up', async () => {
    await nats.stop();
    api = node(nats.url, { ackWaitMs: 5_000, maxDeliver: 3 });
    await expect(api.queue.request('echo', text(''))).rejects.toThrow(UpstreamError);
    await expect(api.queue.submit('echo', text(''))).rejects.toThrow(/cannot be reached/);
    await nats.start();
    await api.link.ready();
    const w = worker(nats.url, { ackWaitMs: 5_000, maxDeliver: 3 }, { echo: async (p) => p });
    expect(read(await api.queue.request('echo', text('back')))).toBe('back');
    await w.stop();
  }, 30_000);

  it('fails awaited results at once when the connection is lost, new requests too, and recovers', async () => {
    api = node(nats.url, { ackWaitMs: 5_000, maxDeliver: 3 });
    await api.link.ready();
    const awaited = api.queue.request('nobody', text(''), { timeoutMs: 60_000 }).catch((e: unknown) => e);
    await until(async () => (await api!.link.require().jsm.streams.info(TASK_STREAM)).state.messages > 0);
    await nats.stop();
    const err = await awaited;
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as Error).message).toMatch(/connection .* was lost/);
    await until(() => api!.link.current() === undefined);
    await expect(api.queue.request('echo', text(''))).rejects.toThrow(UpstreamError);
    await nats.start();
    await api.link.ready();
    await api.link.require().jsm.streams.purge(TASK_STREAM);
    const w = worker(nats.url, { ackWaitMs: 5_000, maxDeliver: 3 }, { echo: async (p) => p });
    expect(read(await api.queue.request('echo', text('recovered')))).toBe('recovered');
    await w.stop();
  }, 30_000);
});

describe('a NATS server with a small max_payload', () => {
  let nats: TestNatsServer;
  let api: Node;
  let w: { stop(): Promise<void> };
  let conf: string;
  const limits = { ackWaitMs: 5_000, maxDeliver: 3 };
  /** Incompressible bytes (a fixed-seed generator). */
  const noise = (n: number) => {
    const out = new Uint8Array(n);
    let x = 7;
    for (let i = 0; i < n; i++) out[i] = (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24;
    return out;
  };
  beforeAll(async () => {
    conf = join(mkdtempSync(join(tmpdir(), 'svc-nats-conf-')), 'small.conf');
    writeFileSync(conf, 'max_payload: 65536\n');
    nats = await startNatsServer(['-c', conf]);
    api = node(nats.url, limits);
    await api.link.ready();
    w = worker(nats.url, limits, { big: async () => noise(100_000), echo: async (p) => p });
  }, 30_000);
  afterAll(async () => {
    await w?.stop();
    await api?.close();
    await nats?.dispose();
    rmSync(dirname(conf), { recursive: true, force: true });
  });

  it('refuses a task larger than max_payload at once, saying which server setting to raise', async () => {
    await expect(api.queue.request('echo', noise(100_000))).rejects.toThrow(/exceeds the NATS server's max_payload \(65536 bytes\)/);
    expect(read(await api.queue.request('echo', text('small')))).toBe('small');
  });

  it('answers a task whose result is larger than max_payload with that error, once, instead of redelivering it', async () => {
    const err = await api.queue.request('big', text('')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as Error).message).toMatch(/result of a big task \(100000 bytes\) exceeds the NATS server's max_payload/);
  });
});
