/**
 * `npm run bench -- <name> [<name> ...] [--option value ...]`: runs benchmarks from bench/registry.ts, prints each
 * result as a table and writes it as JSON to bench/results/<name>.json together with the machine it ran on. Options
 * (`--minutes 25`) go to every benchmark named; those that take options say which (bench/soak.ts).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { arch, cpus, platform } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../src/util/paths.js';
import { BENCHMARKS, type BenchOptions, type BenchResult } from './registry.js';

/** Formats a result as an aligned text table with its title and notes. */
function formatTable(result: BenchResult): string {
  const cells = result.rows.map((row) => result.columns.map((c) => String(row[c] ?? '')));
  const widths = result.columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i].length)));
  const line = (values: string[]) => values.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  return [
    result.title,
    '',
    line([...result.columns]),
    line(widths.map((w) => '-'.repeat(w))),
    ...cells.map(line),
    '',
    ...result.notes,
  ].join('\n');
}

/** Options that take no value. */
const FLAGS = new Set(['force']);

/**
 * The names and the `--option value` pairs of the command line; undefined when an option lacks its value. After
 * `compare`, the other words are its arguments (`args`, newline-joined), not benchmark names.
 */
function parseArgs(args: readonly string[]): { names: string[]; options: BenchOptions } | undefined {
  const names: string[] = [];
  const words: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      (names[0] === 'compare' ? words : names).push(arg);
      continue;
    }
    const key = arg.slice(2);
    const value = FLAGS.has(key) ? 'true' : args[++i];
    if (value === undefined) return undefined;
    options[key] = key in options ? `${options[key]}\n${value}` : value;
  }
  if (words.length) options.args = words.join('\n');
  return { names, options };
}

async function main(args: string[]): Promise<number> {
  const known = Object.keys(BENCHMARKS);
  const parsed = parseArgs(args);
  if (parsed === undefined || parsed.names.length === 0 || parsed.names.some((n) => !(n in BENCHMARKS))) {
    console.error(`Usage: npm run bench -- <name> [<name> ...] [--option value ...]\nBenchmarks: ${known.join(', ')}`);
    return 2;
  }
  const { names, options } = parsed;
  const resultsDir = join(PROJECT_ROOT, 'bench', 'results');
  await mkdir(resultsDir, { recursive: true });
  let code = 0;
  for (const name of names) {
    let result: BenchResult;
    try {
      result = await (await BENCHMARKS[name]()).run(options);
    } catch (err) {
      // A refusal (the kernel workbench's bad variant, flag, revision or wrong answer) is one line and exit 2.
      if (err instanceof Error && (err as { exitCode?: unknown }).exitCode === 2) {
        console.error(`refused: ${err.message}`);
        return 2;
      }
      throw err;
    }
    console.log(`${result.report ?? formatTable(result)}\n`);
    const machine = { node: process.version, platform: platform(), arch: arch(), cpu: cpus()[0]?.model ?? 'unknown' };
    const { report: _report, ...rest } = result;
    const doc = { ...(result.figures ?? {}), ...rest, machine, date: new Date().toISOString() };
    const file = join(resultsDir, `${result.name}.json`);
    await writeFile(file, `${JSON.stringify(doc, null, 2)}\n`);
    console.log(`wrote ${file}`);
    code = Math.max(code, result.exitCode ?? 0);
  }
  return code;
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => { console.error(err instanceof Error ? err.stack : String(err)); process.exitCode = 1; },
);
