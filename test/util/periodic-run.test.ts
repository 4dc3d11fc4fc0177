import { describe, expect, it } from 'vitest';
import { PeriodicRun } from '../../src/util/periodic-run.js';
import { ManualClock } from '../services/support/manual-clock.js';

/** Lets pending promise callbacks run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('PeriodicRun', () => {
  it('runs at start, then intervalMs after each run ends, until stopped', async () => {
    const clock = new ManualClock(0);
    const starts: number[] = [];
    const periodic = new PeriodicRun({
      clock, intervalMs: 1000, run: async () => starts.push(clock.now()), onError: () => expect.fail('no error'),
    });
    expect(periodic.stopped).toBe(false);
    periodic.start();
    await settle();
    expect(starts).toEqual([0]);
    clock.advance(999);
    await settle();
    expect(starts).toEqual([0]);
    clock.advance(1);
    await settle();
    expect(starts).toEqual([0, 1000]);
    await periodic.stop();
    expect(periodic.stopped).toBe(true);
    expect(clock.pendingTimers).toBe(0);
    clock.advance(5000);
    await settle();
    expect(starts).toEqual([0, 1000]);
  });

  it('joins a run in progress instead of starting a second one', async () => {
    const clock = new ManualClock(0);
    let runs = 0;
    let finish!: (n: number) => void;
    const periodic = new PeriodicRun({
      clock, intervalMs: 1000, onError: () => undefined,
      run: () => {
        runs++;
        return new Promise<number>((resolve) => (finish = resolve));
      },
    });
    const a = periodic.runOnce();
    const b = periodic.runOnce();
    expect(runs).toBe(1);
    finish(7);
    expect(await a).toBe(7);
    expect(await b).toBe(7);
    const c = periodic.runOnce();
    expect(runs).toBe(2);
    finish(8);
    expect(await c).toBe(8);
  });

  it('reports a failed timed run and keeps the timer, while a direct run rejects', async () => {
    const clock = new ManualClock(0);
    const errors: unknown[] = [];
    let fail = true;
    let runs = 0;
    const periodic = new PeriodicRun({
      clock, intervalMs: 10, onError: (err) => errors.push(err),
      run: async () => {
        runs++;
        if (fail) throw new Error('store unreachable');
        return runs;
      },
    });
    periodic.start();
    await settle();
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('store unreachable');
    expect(clock.pendingTimers).toBe(1);
    await expect(periodic.runOnce()).rejects.toThrow('store unreachable');
    expect(errors).toHaveLength(1);
    fail = false;
    clock.advance(10);
    await settle();
    expect(runs).toBe(3);
    expect(errors).toHaveLength(1);
    await periodic.stop();
  });

  it('stop waits for the run in progress, even a failing one', async () => {
    const clock = new ManualClock(0);
    let reject!: (err: Error) => void;
    const periodic = new PeriodicRun({
      clock, intervalMs: 10, onError: () => undefined,
      run: () => new Promise<number>((_, r) => (reject = r)),
    });
    periodic.start();
    let stopped = false;
    const stopping = periodic.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    reject(new Error('late failure'));
    await stopping;
    expect(stopped).toBe(true);
    expect(clock.pendingTimers).toBe(0);
  });
});
