import { describe, expect, it } from 'vitest';
import { Lifecycle, releaseErrors } from '../../src/util/lifecycle.js';

/** A logger that keeps its error lines. */
function recordingLog() {
  const lines: { obj: object; msg: string }[] = [];
  return { lines, error: (obj: object, msg: string) => lines.push({ obj, msg }) };
}

/** A start that acquires `names` in order (each registering its release in `released`), then fails when asked. */
function acquiring(life: Lifecycle, names: string[], released: string[], failAfter?: number) {
  return life.start(async () => {
    for (const [i, name] of names.entries()) {
      if (i === failAfter) throw new Error(`start failed at ${name}`);
      // The acquisition itself may wait; the order of registration is what counts.
      await Promise.resolve();
      life.defer(name, async () => {
        await Promise.resolve();
        released.push(name);
      });
    }
    return 'started';
  });
}

describe('Lifecycle', () => {
  it('releases what a start acquired before it failed, in reverse order, once, and rethrows the start error', async () => {
    const life = new Lifecycle();
    const released: string[] = [];
    await expect(acquiring(life, ['db', 'backends', 'model', 'reports', 'app'], released, 3)).rejects.toThrow('start failed at reports');
    expect(released).toEqual(['model', 'backends', 'db']);
    expect(life.closed).toBe(true);
    await life.close();
    expect(released).toEqual(['model', 'backends', 'db']);
  });

  it('releases the same stack in the same order on a normal shutdown; a second shutdown is a no-op', async () => {
    const life = new Lifecycle();
    const released: string[] = [];
    await expect(acquiring(life, ['db', 'backends', 'model'], released)).resolves.toBe('started');
    expect(life.closed).toBe(false);
    const first = life.close();
    const second = life.close();
    expect(second).toBe(first);
    await first;
    expect(released).toEqual(['model', 'backends', 'db']);
    await life.close();
    expect(released).toEqual(['model', 'backends', 'db']);
  });

  it('runs every release when some throw, logs each failure by name and rejects with all of them', async () => {
    const log = recordingLog();
    const life = new Lifecycle(log);
    const released: string[] = [];
    life.defer('db', () => released.push('db'));
    life.defer('pool', () => {
      throw new Error('pool would not close');
    });
    life.defer('link', () => released.push('link'));
    life.defer('loop', async () => {
      throw new Error('loop would not stop');
    });
    const err = await life.close().then(() => undefined, (e: unknown) => e);
    expect(released).toEqual(['link', 'db']);
    expect(err).toBeInstanceOf(SuppressedError);
    expect(releaseErrors(err).map((e) => (e as Error).message)).toEqual(['loop would not stop', 'pool would not close']);
    expect(log.lines).toEqual([
      { obj: { release: 'loop', err: 'loop would not stop' }, msg: 'release failed; releasing the rest' },
      { obj: { release: 'pool', err: 'pool would not close' }, msg: 'release failed; releasing the rest' },
    ]);
  });

  it('rejects with the one error as thrown when a single release fails', async () => {
    const life = new Lifecycle();
    const failure = new Error('only this');
    life.defer('a', () => undefined);
    life.defer('b', () => Promise.reject(failure));
    await expect(life.close()).rejects.toBe(failure);
    expect(releaseErrors(failure)).toEqual([failure]);
  });

  it('keeps the start error, not a release failure, when both happen', async () => {
    const log = recordingLog();
    const life = new Lifecycle(log);
    const start = life.start(async () => {
      life.defer('db', () => {
        throw new Error('db close failed');
      });
      throw new Error('config refused');
    });
    await expect(start).rejects.toThrow('config refused');
    expect(log.lines.map((l) => l.obj)).toEqual([{ release: 'db', err: 'db close failed' }]);
  });

  it('refuses a registration after it has closed', async () => {
    const life = new Lifecycle();
    await life.close();
    expect(() => life.defer('late', () => undefined)).toThrow();
  });
});
