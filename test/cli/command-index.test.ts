/** The CLI's index names every command by the path the command itself answers to. */
import { describe, expect, it } from 'vitest';
import { COMMAND_INDEX } from '../../src/cli/command-index.js';

describe('the command index', () => {
  it('lists each command under its own path, once', async () => {
    for (const entry of COMMAND_INDEX) expect((await entry.load()).path).toEqual(entry.path);
    expect(new Set(COMMAND_INDEX.map((e) => e.path.join(' '))).size).toBe(COMMAND_INDEX.length);
  });
});
