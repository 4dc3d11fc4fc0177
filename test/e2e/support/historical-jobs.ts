/**
 * Polling and inspecting the asynchronous jobs of `/v1/historical/jobs` (batch and area) in end-to-end tests: as a
 * client polls, and as an operator reads the job store after a stop.
 */
import { expect } from 'vitest';
import { openSqliteFile } from '../../../src/db/database.js';
import type { E2eServer } from './e2e-server.js';

/** Polls a job until it is no longer processing; returns its last status document. */
export async function settleJob(server: E2eServer, url: string, key: string): Promise<any> {
  for (;;) {
    const res = await server.get(url, key);
    expect(res.status, res.text).toBe(200);
    if (res.json.status !== 'processing') return res.json;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Polls a job until it runs and has answered part of its input (the moment a restart test stops the service). */
export async function untilJobPartlyDone(server: E2eServer, url: string, key: string): Promise<void> {
  for (;;) {
    const s = (await server.get(url, key)).json;
    expect(s.status).toBe('processing');
    if (s.stage === 'running' && (s.progress.done ?? 0) > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A job's state and attempts as the SQLite job store holds them (read with the service stopped). */
export function storedJobState(dbFile: string, jobId: string): { state: string; attempts: number } {
  const db = openSqliteFile(dbFile, { readOnly: true });
  try {
    const row = db.prepare<[string], { state: string; attempts: number }>('SELECT state, attempts FROM report_jobs WHERE id = ?').get(jobId);
    if (row === undefined) throw new Error(`no job ${jobId} in ${dbFile}`);
    return { state: row.state, attempts: row.attempts };
  } finally {
    db.close();
  }
}
