/**
 * A worker's start and stop release one stack: a start that fails part-way (a task kind's factory throwing) releases
 * what it had acquired — the closes the kinds registered (last first), then the compute pool, then the link — and a
 * normal stop releases the same in the same order, once.
 */
import { Piscina } from 'piscina';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClusterLink } from '../../src/cluster/nats-connection.js';
import { startWorkerNode, type TaskKindsFactory } from '../../src/cluster/worker-process.js';
import { startNatsServer, type TestNatsServer } from './support/nats-server.js';
import { TEST_LINK_OPTIONS } from './support/links.js';

let nats: TestNatsServer;
beforeAll(async () => {
  nats = await startNatsServer();
}, 60_000);
afterAll(async () => {
  await nats?.dispose();
});

/** The releases in the order they ran: the kinds' closes by name, the pool's destruction, the link's close. */
let events: string[];
beforeEach(() => {
  events = [];
  // Recorded as they start, then done as they would be.
  const destroy = Piscina.prototype.destroy;
  vi.spyOn(Piscina.prototype, 'destroy').mockImplementation(function (this: Piscina) {
    events.push('compute pool');
    return destroy.call(this);
  });
  const close = ClusterLink.prototype.close;
  vi.spyOn(ClusterLink.prototype, 'close').mockImplementation(function (this: ClusterLink) {
    events.push('cluster link');
    return close.call(this);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A kinds factory registering two closes that record themselves; it waits for the link so it is up. */
const recordingKinds: TaskKindsFactory = async (parts) => {
  await parts.link.ready();
  for (const name of ['first kind close', 'second kind close']) parts.onStop(async () => void events.push(name));
  return new Map();
};

const RELEASE_ORDER = ['second kind close', 'first kind close', 'compute pool', 'cluster link'];

const options = () => ({ natsUrl: nats.url, dataDir: '.', threads: 1, ...TEST_LINK_OPTIONS });

describe('worker lifecycle', () => {
  it('releases what a failed start acquired, in reverse order, once, and rethrows the start error', async () => {
    const failing: TaskKindsFactory = () => {
      throw new Error('kind refused to start');
    };
    await expect(startWorkerNode({ ...options(), kinds: [recordingKinds, failing] })).rejects.toThrow('kind refused to start');
    expect(events).toEqual(RELEASE_ORDER);
  });

  it('releases the same in the same order on stop; a second stop is a no-op', async () => {
    const worker = await startWorkerNode({ ...options(), kinds: [recordingKinds] });
    expect(events).toEqual([]);
    const first = worker.stop();
    expect(worker.stop()).toBe(first);
    await first;
    expect(events).toEqual(RELEASE_ORDER);
    await worker.stop();
    expect(events).toEqual(RELEASE_ORDER);
  });
});
