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
import { BENCHMARKS, isBenchFlag, type BenchResult } from './registry.js';

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

/**
 * Splits `a --x 1 b` into benchmarks with their arguments: [['a', ['--x', '1']], ['b', []]]; an option's value is
 * never a benchmark's name (`kernels --kernel precompute`), and after `compare` every word is its argument. Undefined
 * when malformed.
 */
function parseCommandLine(argv: readonly string[]): [string, string[]][] | undefined {
  const runs: [string, string[]][] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const current = runs[runs.length - 1];
    if (arg.startsWith('--')) {
      if (current === undefined) return undefined;
      current[1].push(arg);
      if (!isBenchFlag(arg) && i + 1 < argv.length) current[1].push(argv[++i]!);
    } else if (arg in BENCHMARKS && current?.[0] !== 'compare') runs.push([arg, []]);
    else if (current !== undefined) current[1].push(arg);
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
  let code = 0;
  for (const [name, args] of runs) {
    let result: BenchResult;
    try {
      result = await (await BENCHMARKS[name]()).run(args);
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
    if (result.failed) console.log(`${name}: a target was missed (exit code 1).`);
    code = Math.max(code, result.exitCode ?? (result.failed ? 1 : 0));
  }
  return code;
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => { console.error(err instanceof Error ? err.stack : String(err)); process.exitCode = 1; },
);
