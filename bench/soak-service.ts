/**
 * The service under soak: `svc serve` as an operator starts it (its own process, a SQLite file, the embedded model
 * service and geocoder), listening on 127.0.0.1 at an ephemeral port, with a secret key issued beforehand by
 * `svc keys create`. Its resident memory is read from /proc (Linux), so the figure is the whole process's: heap,
 * buffers, compute threads and their WebAssembly memories.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../src/util/paths.js';

const SVC = join(PROJECT_ROOT, 'bin', 'svc.js');
/** How long the service may take to listen. */
const START_TIMEOUT_MS = 120_000;

/** A running `svc serve`. */
export interface SoakService {
  readonly url: string;
  readonly key: string;
  /** Resident set size of the service process now, bytes. */
  rssBytes(): Promise<number>;
  /** SIGTERM (a graceful shutdown) and waits for the exit. */
  stop(): Promise<void>;
}

/** Issues a secret key with the highest rate an operator may give, in the database `dbFile`. */
async function issueKey(dbFile: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    SVC, 'keys', 'create', '--type', 'sk', '--label', 'soak', '--rate-per-min', '1000000', '--db', dbFile, '--json',
  ]);
  return (JSON.parse(stdout) as { key: string }).key;
}

/** Resident set size of process `pid`, bytes (VmRSS of /proc/<pid>/status). */
async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (kib === null) throw new Error(`No VmRSS in /proc/${pid}/status.`);
  return Number(kib[1]) * 1024;
}

/** Starts `svc serve` over `dataDir` with `env` added (SVC_MEMORY_BUDGET_MB, …); resolves once it listens. */
export async function startService(dataDir: string, dbFile: string, env: Readonly<Record<string, string>>): Promise<SoakService> {
  if (Number(process.versions.node.split('.')[0]) !== 24) throw new Error('The soak runs under the Node 24 of the project (npm run bench).');
  const key = await issueKey(dbFile);
  const child: ChildProcess = spawn(process.execPath, [SVC, 'serve', '--data', dataDir, '--db', dbFile, '--port', '0', '--host', '127.0.0.1'], {
    env: { ...process.env, SVC_LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error('svc serve did not listen within 2 minutes.')), START_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (found !== null) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`svc serve exited (code ${String(code)}) before listening:\n${seen}`));
    });
  });
  child.stdout!.resume();
  return {
    url,
    key,
    rssBytes: () => rssOf(child.pid!),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
