/** The precompute bar's outage note, and a progress bar's note off a terminal: printed when it appears and clears. */
import { describe, expect, it } from 'vitest';
import { outageNote } from '../../src/cli/precompute-bar.js';
import { createProgress } from '../../src/util/progress.js';

describe('the outage shown by the precompute bar', () => {
  it('says how long the cluster has been unreachable, and nothing while it is reachable', () => {
    expect(outageNote(undefined, 10_000)).toBeUndefined();
    expect(outageNote(1_000, 13_400)).toBe('cluster unreachable for 12 s, reconnecting…');
  });

  it('is printed off a terminal when it appears and when it clears, throttled while it only changes', () => {
    const lines: string[] = [];
    let t = 0;
    const stream = { isTTY: false, write: (s: string) => lines.push(s) } as unknown as NodeJS.WriteStream;
    const bar = createProgress('precompute x', 8, { stream, plainEveryMs: 2_000, now: () => t });
    bar.tick();
    bar.note('cluster unreachable for 1 s, reconnecting…');
    t = 500;
    bar.note('cluster unreachable for 2 s, reconnecting…');
    t = 1_000;
    bar.note(undefined);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/1\/8 .* - cluster unreachable for 1 s, reconnecting…\n$/);
    expect(lines[2]).not.toMatch(/unreachable/);
  });
});
