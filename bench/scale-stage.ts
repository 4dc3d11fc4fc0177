/**
 * One stage of the scale ladder in a process of its own, so that its peak memory is its own: the parent calls
 * `runStage(name, params)`, which forks `node dist/bench/scale-stage.js <name> <params JSON>`; the child runs the
 * stage (bench/scale-stages.ts) and sends back its figures with its wall and CPU seconds (all threads) and its peak
 * resident memory (VmHWM), then exits.
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT } from '../src/util/paths.js';
import { peakResidentMb } from './scale-memory.js';
import { STAGES, type StageFigures, type StageParams } from './scale-stages.js';

/** What a stage reports: its own figures plus wall, CPU and peak memory of its process. */
export type StageResult = StageFigures & { readonly wall_s: number; readonly cpu_s: number; readonly peak_rss_mb: number };

type Reply = { ok: true; result: StageResult } | { ok: false; error: string };

/** Runs stage `name` in a child process and returns what it reports; rejects with the child's error. */
export function runStage(name: string, params: StageParams): Promise<StageResult> {
  const child = fork(join(PROJECT_ROOT, 'dist', 'bench', 'scale-stage.js'), [name, JSON.stringify(params)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let reply: Reply | undefined;
    child.on('message', (message) => { reply = message as Reply; });
    child.on('exit', (code, signal) => {
      if (reply?.ok) resolve(reply.result);
      else reject(new Error(`Stage ${name} failed (exit ${code ?? signal}): ${reply && !reply.ok ? reply.error : 'no result'}`));
    });
  });
}

async function main(): Promise<void> {
  const [name, json] = process.argv.slice(2);
  const stage = STAGES[name];
  if (stage === undefined || json === undefined) throw new Error(`usage: scale-stage.js <${Object.keys(STAGES).join('|')}> <params JSON>`);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const figures = await stage(JSON.parse(json) as StageParams);
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const result: StageResult = { ...figures, wall_s: wall, cpu_s: (cpu.user + cpu.system) / 1e6, peak_rss_mb: peakResidentMb() };
  process.send!({ ok: true, result } satisfies Reply, () => process.exit(0));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
    if (process.send) process.send({ ok: false, error } satisfies Reply, () => process.exit(1));
    else {
      console.error(error);
      process.exit(1);
    }
  });
}
