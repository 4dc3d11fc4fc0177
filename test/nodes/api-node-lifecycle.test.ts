/**
 * The API node's start and shutdown release one stack: a start that fails part-way (here the reports wiring, after
 * the database, the back ends, the statistics and the model service are up) releases what it had acquired in reverse
 * order and rethrows, and a normal shutdown releases the same, in the same order, once.
 */
import { basename } from 'node:path';
import { Piscina } from 'piscina';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SqliteDatabase } from '../../src/db/database.js';
import { DEFAULT_REPORTS_WIRING, type ReportsWiring } from '../../src/nodes/api-node.js';
import { startE2eServer } from '../e2e/support/e2e-server.js';

/** The releases seen, in the order they started. */
let events: string[];

/** Records `name` (or what it says of the receiver) each time `target[method]` is called, then does what it did. */
function record<T extends object>(target: T, method: keyof T & string, name: string | ((self: never) => string)): void {
  const original = target[method] as (...args: unknown[]) => unknown;
  vi.spyOn(target, method as never).mockImplementation(function (this: never, ...args: unknown[]) {
    events.push(typeof name === 'string' ? name : name(this));
    return original.apply(this, args);
  } as never);
}

beforeEach(() => {
  events = [];
  // The compute pool and the reports' rendering threads are both Piscina pools: told apart by their entry.
  record(Piscina.prototype, 'destroy', (pool: Piscina) => `${basename(String(pool.options.filename), '.js')} pool`);
  record(SqliteDatabase.prototype, 'close', 'database');
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The service's own reports wiring, watching the statistics' drain; `fail` makes it throw instead. */
function watchingWiring(fail: boolean): ReportsWiring {
  return {
    content: (parts) => {
      record(parts.historical, 'drain', 'statistics drained');
      if (fail) throw new Error('reports wiring refused');
      return DEFAULT_REPORTS_WIRING.content(parts);
    },
  };
}

describe('API node lifecycle', () => {
  it('releases what a failed start acquired, in reverse order, once, and rethrows the start error', async () => {
    await expect(startE2eServer({ reports: watchingWiring(true), config: { computeThreads: 1 } })).rejects.toThrow('reports wiring refused');
    expect(events).toEqual(['statistics drained', 'compute-worker pool', 'database']);
  });

  it('releases the same, in the same order, on shutdown; a second shutdown is a no-op', async () => {
    const e2e = await startE2eServer({ reports: watchingWiring(false), config: { computeThreads: 1 } });
    const { app, reports, modelService } = e2e.server;
    record(app, 'close', 'http server');
    record(reports, 'close', 'reports');
    record(modelService, 'close', 'model service');
    const first = e2e.server.close();
    expect(e2e.server.close()).toBe(first);
    await e2e.close();
    const order = [
      'http server', 'reports', 'report-worker pool', 'model service', 'statistics drained', 'compute-worker pool', 'database',
    ];
    expect(events).toEqual(order);
    await e2e.server.close();
    expect(events).toEqual(order);
  });
});
