/**
 * `npm run bench -- <name> [options] [<name> [options] ...]`: runs benchmarks from bench/registry.ts, prints each
 * result as a table and writes it as JSON to bench/results/<name>.json together with the machine it ran on. The words
 * after a benchmark's name, up to the next name, are its options (`soak --minutes 25`, `scale --steps demo:1`); those
 * that take options say which (bench/soak.ts, bench/scale.ts). Exit code 1 when a benchmark missed a target.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { arch, cpus, platform } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../src/util/paths.js';
import { BENCHMARKS, type BenchResult } from './registry.js';

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

/** Splits `a --x 1 b` into benchmarks with their options: [['a', ['--x', '1']], ['b', []]]; undefined when malformed. */
function parseCommandLine(argv: readonly string[]): [string, string[]][] | undefined {
  const runs: [string, string[]][] = [];
  for (const arg of argv) {
    if (arg in BENCHMARKS) runs.push([arg, []]);
    else if (runs.length > 0 && (arg.startsWith('--') || runs[runs.length - 1][1].length > 0)) runs[runs.length - 1][1].push(arg);
    else return undefined;
  }
  return runs.length > 0 ? runs : undefined;
}

async function main(argv: string[]): Promise<number> {
  const runs = parseCommandLine(argv);
  if (runs === undefined) {
    console.error(`Usage: npm run bench -- <name> [options] [<name> [options] ...]\nBenchmarks: ${Object.keys(BENCHMARKS).join(', ')}`);
    return 2;
  }
  const resultsDir = join(PROJECT_ROOT, 'bench', 'results');
  await mkdir(resultsDir, { recursive: true });
  let failed = false;
  for (const [name, args] of runs) {
    const result = await (await BENCHMARKS[name]()).run(args);
    console.log(`${formatTable(result)}\n`);
    const machine = { node: process.version, platform: platform(), arch: arch(), cpu: cpus()[0]?.model ?? 'unknown' };
    const doc = { ...(result.figures ?? {}), ...result, machine, date: new Date().toISOString() };
    const file = join(resultsDir, `${name}.json`);
    await writeFile(file, `${JSON.stringify(doc, null, 2)}\n`);
    console.log(`wrote ${file}`);
    if (result.failed) {
      console.log(`${name}: a target was missed (exit code 1).`);
      failed = true;
    }
  }
  return failed ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => { console.error(err instanceof Error ? err.stack : String(err)); process.exitCode = 1; },
);
