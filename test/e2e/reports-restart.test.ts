/**
 * A kill -9 loses no report job and leaves no half-written file. The service runs as its own process, exactly as an
 * operator runs it (`svc serve`, compiled, over the fixture datasets); 20 jobs are accepted over HTTP, the process is
 * killed with SIGKILL while they are being worked on, and a new process on the same database and reports directory
 * completes every one of them: 20 jobs, each completed once, each with its whole HTML file, no temporary file left.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { openSqliteFile } from '../../src/db/database.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteKeyStore } from '../../src/keys/key-store.js';
import { openDatabase } from '../../src/db/database.js';
import { PROJECT_ROOT } from '../../src/util/paths.js';
import { fixtureDataDir } from '../helpers/fixtures.js';

const SVC = join(PROJECT_ROOT, 'bin', 'svc.js');

/** A running child service: its URL and every log line it printed. */
interface Child {
  readonly process: ChildProcess;
  readonly url: string;
  readonly lines: string[];
  readonly exited: Promise<NodeJS.Signals | number | null>;
}

/** The log lines of the service: its JSON lines (the banner's plain lines are skipped). */
function logLines(lines: readonly string[]): { msg?: string; jobId?: string; recovered?: number }[] {
  return lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg?: string; jobId?: string; recovered?: number });
}

async function startChild(dataDir: string, dir: string): Promise<Child> {
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SVC_')));
  Object.assign(env, {
    SVC_LOG_LEVEL: 'info', SVC_REPORTS_DIR: join(dir, 'reports'), SVC_COMPUTE_THREADS: '1', SVC_REPORT_CONCURRENCY: '1',
  });
  const child = spawn(process.execPath, [SVC, 'serve', '--data', dataDir, '--db', join(dir, 'svc.sqlite'), '--port', '0'], {
    env, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const listening = / listening on (http:\/\/\S+) /.exec(line);
      if (listening) resolve(listening[1]!);
    });
    void exited.then((how) => reject(new Error(`svc serve exited (${String(how)}) before listening: ${stderr}`)));
  });
  return { process: child, url, lines, exited };
}

async function json(url: string, key: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers } });
  return { status: res.status, body: await res.json() };
}

let dir: string;
let dataDir: string;
let key: string;
const children: Child[] = [];
beforeAll(async () => {
  dataDir = await fixtureDataDir();
  dir = await mkdtemp(join(tmpdir(), 'svc-kill-'));
  const db = openDatabase(join(dir, 'svc.sqlite'));
  key = new SqliteKeyStore(db).create({ type: 'sk', label: 'kill -9', reportsPerDay: 100, ratePerMin: 100_000 }, new Date()).key;
  db.close();
});
afterAll(async () => {
  for (const c of children) if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

/** States of every job, read from the database file as it is on disk. */
function statesOnDisk(): Map<string, string> {
  const db = openSqliteFile(join(dir, 'svc.sqlite'), { readOnly: true });
  try {
    return new Map((db.prepare('SELECT id, state FROM report_jobs').all() as { id: string; state: string }[]).map((r) => [r.id, r.state]));
  } finally {
    db.close();
  }
}

describe('kill -9 during 20 report jobs', () => {
  it('loses none, duplicates none and leaves no partial file', async () => {
    const first = await startChild(dataDir, dir);
    children.push(first);
    // 20 jobs at 20 places along a street of the Brussels zone (each computed cold).
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await json(`${first.url}/v1/reports`, key, {
        method: 'POST', body: JSON.stringify({ lat: 50.8466 + i * 0.0002, lon: 4.3519, radius: 25 }),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      ids.push(res.body.job_id);
    }
    // Kill as soon as the first report is completed, with the others queued or in hand.
    for (;;) {
      const states = await Promise.all(ids.map(async (id) => (await json(`${first.url}/v1/reports/${id}`, key)).body.status as string));
      if (states.includes('completed')) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    first.process.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    const atKill = statesOnDisk();
    expect(atKill.size).toBe(20);
    expect([...atKill.values()].filter((s) => s !== 'completed').length).toBeGreaterThan(0);

    const second = await startChild(dataDir, dir);
    children.push(second);
    for (;;) {
      const states = await Promise.all(ids.map(async (id) => (await json(`${second.url}/v1/reports/${id}`, key)).body.status as string));
      expect(states.filter((s) => s === 'failed')).toEqual([]);
      if (states.every((s) => s === 'completed')) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const resumed = logLines(second.lines).find((l) => l.msg === 'report jobs resumed after a restart');
    expect(resumed?.recovered).toBe([...atKill.values()].filter((s) => s === 'running' || s === 'delivering').length || undefined);

    // No job was completed twice: each completion is logged once, by whichever process made it.
    const completions = logLines([...first.lines, ...second.lines])
      .filter((l) => l.msg === 'report job completed')
      .map((l) => l.jobId!);
    expect(new Set(completions).size).toBe(completions.length);
    for (const id of completions) expect(ids).toContain(id);
    expect(completions.length).toBeGreaterThanOrEqual(20 - [...atKill.values()].filter((s) => s === 'completed').length);

    const onDisk = statesOnDisk();
    expect(onDisk.size).toBe(20);
    expect([...onDisk.values()].every((s) => s === 'completed')).toBe(true);
    const files = await readdir(join(dir, 'reports'));
    expect(files.filter((f) => f.startsWith('.'))).toEqual([]);
    for (const id of ids) {
      const html = await readFile(join(dir, 'reports', `${id}.html`), 'utf8');
      expect(html).toMatch(/^<!doctype html>.*<\/html>\s*$/is);
    }

    second.process.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
