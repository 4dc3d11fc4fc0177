/** `svc model-service`: option checks, and a real run over the synthetic block stopped by SIGTERM. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { modelServiceCommand } from '../../src/cli/commands/model-service.js';
import { loadAllCommands } from '../../src/cli/command-index.js';
import { ValidationError } from '../../src/errors.js';
import { syntheticDataDir } from './synthetic-city.js';

let dataDir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dataDir, cleanup } = await syntheticDataDir());
});
afterAll(async () => cleanup());

describe('svc model-service', () => {
  it('is registered', async () => {
    expect(await loadAllCommands()).toContain(modelServiceCommand);
    expect(modelServiceCommand.path).toEqual(['model-service']);
  });

  it.each([
    [['--port', 'x']],
    [['--port', '70000']],
    [['--seed', '1.5']],
    [['--seed=-1']],
    [['--cache-mb', '0']],
    [['--host', ' ']],
  ])('refuses %j', async (args) => {
    await expect(modelServiceCommand.run(['--data', dataDir, ...args])).rejects.toBeInstanceOf(ValidationError);
  });

  it('serves the datasets of --data until SIGTERM', async () => {
    // The command stops on SIGINT or SIGTERM; the test runner's own listeners are set aside meanwhile.
    const saved = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    process.removeAllListeners('SIGINT');
    process.removeAllListeners('SIGTERM');
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
    try {
      const run = modelServiceCommand.run(['--data', dataDir, '--port', '0', '--seed', '3']);
      for (let i = 0; i < 2000 && lines.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
      const url = /listening on (http:\/\/\S+)/.exec(lines[0] ?? '')?.[1];
      expect(lines[0]).toContain('brussels_extended');
      const health = await (await fetch(`${url}/health`)).json();
      expect(health).toMatchObject({ service: 'svc-model-service', datasets: ['brussels_extended'] });
      process.emit('SIGTERM', 'SIGTERM');
      expect(await run).toBe(0);
      expect(lines.at(-1)).toBe('stopped');
      await expect(fetch(`${url}/health`)).rejects.toThrow();
    } finally {
      log.mockRestore();
      for (const [signal, listeners] of Object.entries(saved)) for (const l of listeners) process.on(signal, l as () => void);
    }
  });
});
