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

/** The names and the `--option value` pairs of the command line; undefined when an option lacks its value. */
function parseArgs(args: readonly string[]): { names: string[]; options: BenchOptions } | undefined {
  const names: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      names.push(arg);
      continue;
    }
    const value = args[++i];
    if (value === undefined) return undefined;
    options[arg.slice(2)] = value;
  }
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
  for (const name of names) {
    const result = await (await BENCHMARKS[name]()).run(options);
    console.log(`${formatTable(result)}\n`);
    const machine = { node: process.version, platform: platform(), arch: arch(), cpu: cpus()[0]?.model ?? 'unknown' };
    const doc = { ...(result.figures ?? {}), ...result, machine, date: new Date().toISOString() };
    const file = join(resultsDir, `${name}.json`);
    await writeFile(file, `${JSON.stringify(doc, null, 2)}\n`);
    console.log(`wrote ${file}`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => { console.error(err instanceof Error ? err.stack : String(err)); process.exitCode = 1; },
);
