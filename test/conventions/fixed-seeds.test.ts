/**
 * Every fast-check run in the suite has a fixed seed, so a failing property fails on every run and on every machine
 * (a property without one explores different inputs each time: a flaky test, not a deterministic one). Reads the test
 * sources: each `fc.assert(…)` / `fc.check(…)` call must pass options holding `seed`, written inline or through a
 * constant of the same file whose definition holds `seed`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/util/paths.js';

/** Every .ts file under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/** The text of the call starting at `open` (the index of its opening parenthesis), parentheses balanced. */
function callText(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open, i + 1);
  }
  return text.slice(open);
}

/** Whether the call's options name a seed, inline or through a same-file constant defined with one. */
function hasSeed(call: string, file: string): boolean {
  if (/\bseed\s*:/.test(call)) return true;
  const tail = call.slice(call.lastIndexOf('}),') + 3);
  return [...tail.matchAll(/\b([A-Z_][A-Z0-9_]*)\b/g)].some(([, name]) =>
    new RegExp(`const ${name}\\s*=\\s*\\{[^}]*\\bseed\\s*:`).test(file));
}

/** `file:line` of every fast-check run without a fixed seed. */
export function unseededRuns(root: string): string[] {
  const found: string[] = [];
  for (const path of sources(root)) {
    const text = readFileSync(path, 'utf8');
    for (const match of text.matchAll(/\bfc\.(assert|check)\(/g)) {
      const line = text.slice(text.lastIndexOf('\n', match.index) + 1, match.index).trim();
      if (line.startsWith('*') || line.startsWith('//')) continue; // prose in a comment, not a call
      const call = callText(text, match.index! + match[0].length - 1);
      if (!hasSeed(call, text)) found.push(`${relative(PROJECT_ROOT, path)}:${text.slice(0, match.index).split('\n').length}`);
    }
  }
  return found;
}

describe('fast-check properties', () => {
  it('all run with a fixed seed', () => {
    expect(unseededRuns(join(PROJECT_ROOT, 'test'))).toEqual([]);
  });

  it('are recognised with and without a seed', () => {
    const file = 'const RUNS = { numRuns: 5, seed: 1 };\nconst LOOSE = { numRuns: 5 };';
    expect(hasSeed('(fc.property(fc.nat(), (n) => { f(n); }), { numRuns: 5, seed: 3 })', file)).toBe(true);
    expect(hasSeed('(fc.property(fc.nat(), (n) => { f(n); }), RUNS)', file)).toBe(true);
    expect(hasSeed('(fc.property(fc.nat(), (n) => { f(n); }), { ...RUNS, numRuns: 2 })', file)).toBe(true);
    expect(hasSeed('(fc.property(fc.nat(), (n) => { f(n); }), { numRuns: 5 })', file)).toBe(false);
    expect(hasSeed('(fc.property(fc.nat(), (n) => { f(n); }), LOOSE)', file)).toBe(false);
    expect(hasSeed('(fc.property(fc.nat(), (n) => { f(n); }))', file)).toBe(false);
  });
});
