/**
 * A real `svc worker` child process (the compiled CLI, bin/svc.js) for the cluster tests: started with its own data
 * directory and thread count, ready once it logged its connection to NATS, stoppable with any signal.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../../src/util/paths.js';

/** A running worker process. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  /** Its JSON log lines so far. */
  readonly lines: Record<string, unknown>[];
  /** Resolves with the exit code (null when killed by a signal) once it exited. */
  readonly exited: Promise<number | null>;
  /** Resolves once a log line satisfies `match`. */
  waitFor(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

/** Starts `svc worker --nats url --data dataDir --threads threads`; resolves once it is connected to NATS. */
export async function startWorkerProcess(
  url: string, dataDir: string, options: { threads?: number; env?: Record<string, string>; grace?: number } = {},
): Promise<WorkerProcess> {
  const args = [join(PROJECT_ROOT, 'bin', 'svc.js'), 'worker', '--nats', url, '--data', dataDir, '--threads', String(options.threads ?? 1)];
  if (options.grace !== undefined) args.push('--grace', String(options.grace));
  const child = spawn(process.execPath, args, { env: { ...process.env, ...options.env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const lines: Record<string, unknown>[] = [];
  const waiters: { match: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void }[] = [];
  let rest = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    rest += chunk.toString();
    let nl: number;
    while ((nl = rest.indexOf('\n')) >= 0) {
      const text = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        stderr += `${text}\n`;
        continue;
      }
      lines.push(line);
      for (const w of [...waiters]) {
        if (w.match(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitFor = (match: (l: Record<string, unknown>) => boolean) => {
    const seen = lines.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      waiters.push({ match, resolve });
      void exited.then((code) => reject(new Error(`svc worker exited (${code}) before the expected log line:\n${stderr}`)));
    });
  };
  const worker = { child, lines, exited, waitFor };
  await waitFor((l) => l.msg === 'connected to NATS');
  return worker;
}
