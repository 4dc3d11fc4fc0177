/**
 * What `svc` prints when a command fails (README.md, Command line). A usage error — an unknown option, a
 * missing option or argument, options that exclude each other — prints the message, the command's synopsis and a
 * pointer to its --help, exit code 2. Any other error — a bad option value, missing or damaged data, a missing
 * precompute, a malformed input file — prints the message and the pointer only, never the usage text: exit code 2
 * for input the command refuses, 1 for other failures.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureDataDir } from '../helpers/fixtures.js';
import { svc } from './support/run-svc.js';

/** The paragraphs of a command's --help after its synopsis (the description and the options). */
async function descriptionOf(command: string[]): Promise<string[]> {
  const help = await svc(...command, '--help');
  expect(help.code).toBe(0);
  return help.stdout.split(/\n\s*\n/).slice(1).map((p) => p.trim()).filter((p) => p !== '');
}

describe('svc error output', () => {
  let root: string;
  let data: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'svc-cli-errors-'));
    data = await fixtureDataDir();
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it.each([
    [['stats'], ['--lat', '50.85', '--lon', '4.35'], '--data DIR is required.'],
    [['stats'], ['--data', 'x', '--frobnicate'], "Unknown option '--frobnicate'"],
    [['data', 'verify'], [], 'Give exactly one directory'],
    [['atlas', 'export'], ['--data', 'x', '--city', 'brussels'], '--out DIR is required.'],
    [['addresses', 'import'], ['--data', 'x'], 'Name at least one register file'],
    [['precompute'], ['--data', 'x', '--city', 'brussels', '--threads', '2', '--nats', 'nats://localhost:4222'], '--threads is for a local run'],
    [['keys', 'create'], ['--label', 'a'], '--type sk|pk is required.'],
  ])('%j %j is a usage error: the message, the synopsis and a pointer to --help (exit 2)', async (command, args, message) => {
    const name = `svc ${command.join(' ')}`;
    const run = await svc(...command, ...args);
    expect(run.code).toBe(2);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`${name}: ${lines[0].slice(name.length + 2)}`);
    expect(lines[0]).toContain(message);
    expect(run.stderr).toContain(`\n\nUsage: ${name}`);
    expect(lines.at(-1)).toBe(`Run '${name} --help' for usage.`);
    for (const paragraph of await descriptionOf(command)) expect(run.stderr).not.toContain(paragraph);
  });

  it('a data error prints its message and one line pointing to --help, not the usage', async () => {
    const badRegister = join(root, 'openaddress-bebru.csv');
    await writeFile(badRegister, 'a,b\n1,2\n');
    const cases: [string[], number, string | RegExp][] = [
      [['stats', '--data', join(root, 'nothing'), '--lat', '50.8467', '--lon', '4.3525'], 1, 'Dataset not found'],
      [['stats', '--data', data, '--lat', 'north', '--lon', '4.35'], 2, "--lat must be a number, got 'north'."],
      [['data', 'verify', join(root, 'nowhere')], 1, /cannot be read \(ENOENT\)/],
      [['atlas', 'export', '--data', data, '--city', 'brussels', '--out', join(root, 'atlas')], 2, 'svc precompute --data'],
      [['atlas', 'export', '--data', data, '--city', 'ghent', '--out', join(root, 'atlas')], 2, 'nationwide dataset'],
      [['addresses', 'import', '--data', join(root, 'index'), badRegister], 2, 'openaddress-bebru.csv, line 1: not a BeSt Address CSV header'],
      [['addresses', 'import', '--data', join(root, 'index'), join(root, 'missing.csv')], 2, 'missing.csv'],
    ];
    for (const [args, code, message] of cases) {
      const command = args[0] === 'stats' ? ['stats'] : args.slice(0, 2);
      const name = `svc ${command.join(' ')}`;
      const run = await svc(...args);
      const what = `${args.join(' ')}\n${run.stderr}`;
      expect(run.code, what).toBe(code);
      const lines = run.stderr.trimEnd().split('\n');
      expect(lines, what).toHaveLength(2);
      expect(lines[0].startsWith(`${name}: `), what).toBe(true);
      expect(lines[0], what).toMatch(message);
      expect(lines[1], what).toBe(`Run '${name} --help' for usage.`);
      expect(run.stderr, what).not.toContain('Usage:');
    }
  });

  it('an unknown command points to svc help instead of listing every command', async () => {
    const run = await svc('frobnicate');
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      "svc: unknown command 'frobnicate'.",
      "Run 'svc help' for the list of commands.",
    ]);
  });
});
