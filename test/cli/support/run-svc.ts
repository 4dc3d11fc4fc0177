/** Runs the compiled CLI (bin/svc.js) in a child process, as a user does, for the command-line tests. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../../src/util/paths.js';

const run = promisify(execFile);

/** The CLI's entry point. */
export const SVC = join(PROJECT_ROOT, 'bin', 'svc.js');

/** What a run of the CLI gave. */
export interface SvcRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `svc ...args`; resolves with exit code and output, never rejects. */
export async function svc(...args: string[]): Promise<SvcRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, [SVC, ...args], { maxBuffer: 16 << 20 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}
