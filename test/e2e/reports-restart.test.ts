/**
 * A kill -9 loses no report job and leaves no half-written file. The service runs as its own process
 * (test/e2e/support/report-child.mjs); 20 jobs are accepted over HTTP, the process is killed with SIGKILL while they
 * are being worked on, and a new process on the same database and reports directory completes every one of them:
 * 20 jobs, each completed once, each with its whole HTML file, and no temporary file left.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteKeyStore } from '../../src/keys/key-store.js';
import { openDatabase } from '../../src/db/database.js';
import { PROJECT_ROOT } from '../../src/util/paths.js';
import { fixtureDataDir } from '../helpers/fixtures.js';

const CHILD = join(PROJECT_ROOT, 'test', 'e2e', 'support', 'report-child.mjs');

/** A running child service: its URL and every log line it printed. */
interface Child {
  readonly process: ChildProcess;
  readonly url: string;
  readonly lines: string[];
  readonly exited: Promise<NodeJS.Signals | number | null>;
}

async function startChild(dataDir: string, dir: string, delayMs: number): Promise<Child> {
  const child = spawn(process.execPath, [CHILD, dataDir, dir, String(delayMs)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const listening = (JSON.parse(line) as { listening?: string }).listening;
      if (listening) resolve(listening);
    });
    void exited.then((how) => reject(new Error(`child exited (${String(how)}) before listening: ${stderr}`)));
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
  const db = new BetterSqlite3(join(dir, 'svc.sqlite'), { readonly: true });
  try {
    return new Map((db.prepare('SELECT id, state FROM report_jobs').all() as { id: string; state: string }[]).map((r) => [r.id, r.state]));
  } finally {
    db.close();
  }
}

describe('kill -9 during 20 report jobs', () => {
  it('loses none, duplicates none and leaves no partial file', async () => {
    const first = await startChild(dataDir, dir, 40);
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

    const second = await startChild(dataDir, dir, 0);
    children.push(second);
    for (;;) {
      const states = await Promise.all(ids.map(async (id) => (await json(`${second.url}/v1/reports/${id}`, key)).body.status as string));
      expect(states.filter((s) => s === 'failed')).toEqual([]);
      if (states.every((s) => s === 'completed')) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const resumed = second.lines.map((l) => JSON.parse(l) as { msg?: string; recovered?: number }).find((l) => l.msg === 'report jobs resumed after a restart');
    expect(resumed?.recovered).toBe([...atKill.values()].filter((s) => s === 'running' || s === 'delivering').length || undefined);

    // No job was completed twice: each completion is logged once, by whichever process made it.
    const completions = [...first.lines, ...second.lines]
      .map((l) => JSON.parse(l) as { msg?: string; jobId?: string })
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
      expect(html).toMatch(/^<!doctype html>.*<\/html>\n$/s);
    }

    second.process.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
