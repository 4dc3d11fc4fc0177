/**
 * The environment is read where the process starts and nowhere else: the command line's option handling
 * (src/cli/options.ts) hands it to `loadConfig`, and every other part receives the configuration it needs. Reads the
 * sources under src/: any other file that mentions `process.env` (in code or in a comment), takes `env` out of
 * `process`, or imports `env` from `node:process` fails the test, named by file and line.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/util/paths.js';

/** The files that may read the environment: where the process starts. */
const ENTRY_POINTS = new Set(['src/cli/options.ts']);

/** The ways to reach the environment: `process.env`, `process['env']`, `{ env } = process`, `import { env } from 'node:process'`. */
const READS = [
  /\bprocess\s*(?:\?\.|\.)\s*env\b/g,
  /\bprocess\s*\[\s*['"`]env['"`]\s*\]/g,
  /\{[^{}]*\benv\b[^{}]*\}\s*=\s*(?:globalThis\.)?process\b/g,
  /\bimport\s*\{[^}]*\benv\b[^}]*\}\s*from\s*['"](?:node:)?process['"]/g,
];

/** Every .ts file under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/** The 1-based line of each place in `text` that reaches the environment. */
export function environmentReads(text: string): number[] {
  const lines = READS.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => text.slice(0, m.index).split('\n').length));
  return [...new Set(lines)].sort((a, b) => a - b);
}

describe('the environment', () => {
  it('is read only by the entry points', () => {
    const found = sources(join(PROJECT_ROOT, 'src')).flatMap((path) => {
      const file = relative(PROJECT_ROOT, path).split('\\').join('/');
      if (ENTRY_POINTS.has(file)) return [];
      return environmentReads(readFileSync(path, 'utf8')).map((line) => `${file}:${line}`);
    });
    expect(found).toEqual([]);
  });

  it('is still read by each entry point (the list names real readers)', () => {
    for (const file of ENTRY_POINTS) expect(environmentReads(readFileSync(join(PROJECT_ROOT, file), 'utf8')), file).not.toEqual([]);
  });

  it('is recognised however it is reached, on the right line', () => {
    expect(environmentReads('const a = 1;\nconst port = process.env.SVC_PORT;')).toEqual([2]);
    expect(environmentReads('// never process.env here')).toEqual([1]);
    expect(environmentReads("x\ny\nconst e = process['env'];")).toEqual([3]);
    expect(environmentReads('const { env, argv } = process;')).toEqual([1]);
    expect(environmentReads("import {\n  argv,\n  env,\n} from 'node:process';")).toEqual([1]);
    expect(environmentReads('globalThis.process?.env')).toEqual([1]);
    expect(environmentReads('loadConfig(env, overrides); const environment = readEnv(); process.exitCode = 1;')).toEqual([]);
  });
});
