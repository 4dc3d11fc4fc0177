/**
 * Report jobs in the service's SQLite database (the embedded default): every seam of job-types.ts over the tables of
 * migration 2. Each operation is one statement or one transaction, so a process killed at any moment leaves every job
 * in a state it had; WAL mode keeps every committed change across a crash of the process. What a move writes is the
 * state machine's (job-transitions.ts, shared with the KV store), applied in the transaction that read the row.
 *
 * One serving process per database runs jobs: `recover` requeues whatever a stopped process left running.
 */
import type { Database } from '../../db/database.js';
import type { ReportContent } from '../report-types.js';
import { acceptedProgress, advanced, claimed, expired, pdfRecorded, requeued, type JobProgress } from './job-transitions.js';
import type {
  AcceptInput,
  AcceptOutcome,
  Claim,
  IdempotentRecord,
  JobAdvance,
  JobRequest,
  JobState,
  ReportAdmission,
  ReportJob,
  ReportJobQueue,
  ReportJobStore,
  ReportRetention,
} from './job-types.js';

interface JobRow {
  id: string;
  key_id: number;
  state: JobState;
  request_json: string;
  has_content: number;
  attempts: number;
  not_before_ms: number;
  last_error: string | null;
  detail: string | null;
  created_ms: number;
  updated_ms: number;
  completed_ms: number | null;
  finished_ms: number | null;
  pdf_ms: number | null;
  expired_ms: number | null;
}

const JOB_COLUMNS = `id, key_id, state, request_json, content_json IS NOT NULL AS has_content, attempts, not_before_ms,
  last_error, detail, created_ms, updated_ms, completed_ms, finished_ms, pdf_ms, expired_ms`;

function toJob(row: JobRow): ReportJob {
  return Object.freeze({
    id: row.id,
    keyId: row.key_id,
    state: row.state,
    request: Object.freeze(JSON.parse(row.request_json) as JobRequest),
    attempts: row.attempts,
    notBeforeMs: row.not_before_ms,
    hasContent: row.has_content === 1,
    detail: row.detail ?? undefined,
    lastError: row.last_error ?? undefined,
    createdMs: row.created_ms,
    updatedMs: row.updated_ms,
    completedMs: row.completed_ms ?? undefined,
    finishedMs: row.finished_ms ?? undefined,
    pdfMs: row.pdf_ms ?? undefined,
    expiredMs: row.expired_ms ?? undefined,
  });
}

/** A move of the state machine (job-transitions.ts): the job's progress after it, or undefined when it does not apply. */
type Move = (job: JobProgress) => JobProgress | undefined;

/** Every job seam over one SQLite database. */
export class SqliteJobStore implements ReportAdmission, ReportJobStore, ReportJobQueue, ReportRetention {
  readonly #db: Database;
  readonly #get;
  readonly #content;
  readonly #used;
  readonly #idem;
  readonly #due;
  readonly #next;
  readonly #charge;
  readonly #insertJob;
  readonly #insertIdem;
  readonly #write;
  readonly #inHand;
  readonly #openKinds;
  readonly #accept: (input: AcceptInput) => AcceptOutcome;
  readonly #claim: (nowMs: number) => Claim;

  constructor(db: Database) {
    this.#db = db;
    this.#get = db.prepare<[string], JobRow>(`SELECT ${JOB_COLUMNS} FROM report_jobs WHERE id = ?`);
    this.#used = db.prepare<[number, string], { used: number }>('SELECT used FROM report_quota WHERE key_id = ? AND day = ?');
    this.#idem = db.prepare<[number, string], { fingerprint: string; job_id: string }>(
      'SELECT fingerprint, job_id FROM report_idempotency WHERE key_id = ? AND idem_key = ?',
    );
    this.#due = db.prepare<[number], { id: string }>(
      `SELECT id FROM report_jobs WHERE state = 'queued' AND not_before_ms <= ? ORDER BY not_before_ms, created_ms LIMIT 1`,
    );
    this.#next = db.prepare<[], { at: number | null }>(`SELECT MIN(not_before_ms) AS at FROM report_jobs WHERE state = 'queued'`);
    this.#content = db.prepare<[string], { content_json: string | null }>('SELECT content_json FROM report_jobs WHERE id = ?');
    this.#charge = db.prepare<[number, string]>(
      `INSERT INTO report_quota (key_id, day, used) VALUES (?, ?, 1) ON CONFLICT (key_id, day) DO UPDATE SET used = used + 1`,
    );
    this.#insertJob = db.prepare<[string, number, string, string, number, number, number, number]>(
      `INSERT INTO report_jobs (id, key_id, state, request_json, attempts, not_before_ms, created_ms, updated_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#insertIdem = db.prepare<[number, string, string, string]>(
      'INSERT INTO report_idempotency (key_id, idem_key, fingerprint, job_id) VALUES (?, ?, ?, ?)',
    );
    // A job's progress written whole; its content is replaced when given, kept otherwise, dropped when it has none.
    this.#write = db.prepare<[Record<string, string | number | null>]>(
      `UPDATE report_jobs SET state = @state, attempts = @attempts, not_before_ms = @not_before_ms, last_error = @last_error,
         detail = @detail, updated_ms = @updated_ms, completed_ms = @completed_ms, finished_ms = @finished_ms, pdf_ms = @pdf_ms,
         expired_ms = @expired_ms, content_json = CASE WHEN @has_content = 0 THEN NULL ELSE COALESCE(@content, content_json) END
       WHERE id = @id`,
    );
    // The jobs in a runner's hand (IN_HAND_STATES of job-transitions.ts, which `requeued` checks again for each).
    this.#inHand = db.prepare<[], { id: string }>(`SELECT id FROM report_jobs WHERE state IN ('running', 'delivering')`);
    // A report request names no kind (jobKind: 'report').
    this.#openKinds = db.prepare<[number], { kind: string }>(
      `SELECT COALESCE(json_extract(request_json, '$.kind'), 'report') AS kind FROM report_jobs
       WHERE key_id = ? AND state IN ('queued', 'running', 'delivering')`,
    );
    this.#accept = db.transaction((input: AcceptInput) => this.#acceptNow(input));
    this.#claim = db.transaction((nowMs: number) => this.#claimNow(nowMs));
  }

  accept(input: AcceptInput): AcceptOutcome {
    return this.#accept(input);
  }

  quotaUsed(keyId: number, day: string): number {
    return this.#used.get(keyId, day)?.used ?? 0;
  }

  idempotent(keyId: number, key: string): IdempotentRecord | undefined {
    const row = this.#idem.get(keyId, key);
    return row ? { fingerprint: row.fingerprint, jobId: row.job_id } : undefined;
  }

  get(id: string): ReportJob | undefined {
    const row = this.#get.get(id);
    return row ? toJob(row) : undefined;
  }

  content(id: string): ReportContent | undefined {
    const row = this.#content.get(id);
    return row?.content_json ? (JSON.parse(row.content_json) as ReportContent) : undefined;
  }

  markPdfReady(id: string, nowMs: number): void {
    this.#move(id, (job) => pdfRecorded(job, nowMs));
  }

  claim(nowMs: number): Claim {
    return this.#claim(nowMs);
  }

  advance(id: string, from: JobState, to: JobState, nowMs: number, changes: JobAdvance = {}): boolean {
    return this.#move(id, (job) => advanced(job, from, to, nowMs, changes), changes.content);
  }

  requeue(id: string, notBeforeMs: number, nowMs: number, error?: string): void {
    this.#move(id, (job) => requeued(job, notBeforeMs, nowMs, error));
  }

  recover(nowMs: number): number {
    return this.#db.transaction(() => {
      const inHand = this.#inHand.all().filter(({ id }) => this.#move(id, (job) => requeued(job, nowMs, nowMs)));
      return inHand.length;
    })();
  }

  due(beforeMs: number, limit: number): string[] {
    return this.#db
      .prepare<[number, number], { id: string }>(
        'SELECT id FROM report_jobs WHERE expired_ms IS NULL AND finished_ms <= ? ORDER BY finished_ms LIMIT ?',
      )
      .all(beforeMs, limit)
      .map((r) => r.id);
  }

  markExpired(id: string, nowMs: number): void {
    this.#db.transaction(() => {
      if (this.#move(id, (job) => expired(job, nowMs))) this.#db.prepare('DELETE FROM report_idempotency WHERE job_id = ?').run(id);
    })();
  }

  forgetQuotaBefore(day: string): void {
    this.#db.prepare('DELETE FROM report_quota WHERE day < ?').run(day);
  }

  #acceptNow(input: AcceptInput): AcceptOutcome {
    const { idempotency } = input;
    if (idempotency !== undefined) {
      const earlier = this.idempotent(input.keyId, idempotency.key);
      if (earlier !== undefined) {
        if (earlier.fingerprint !== idempotency.fingerprint) return { kind: 'idempotency_conflict' };
        return { kind: 'replayed', job: this.get(earlier.jobId)! };
      }
    }
    if (input.openLimit !== undefined) {
      const { kinds, limit } = input.openLimit;
      const open = this.#openKinds.all(input.keyId).filter((r) => kinds.includes(r.kind)).length;
      if (open >= limit) return { kind: 'open_limit', open };
    }
    if (input.quota !== undefined) {
      const used = this.quotaUsed(input.keyId, input.quota.day);
      if (used >= input.quota.limit) return { kind: 'quota_exceeded', used };
      this.#charge.run(input.keyId, input.quota.day);
    }
    const progress = acceptedProgress(input.nowMs);
    this.#insertJob.run(input.id, input.keyId, progress.state, JSON.stringify(input.request), progress.attempts, progress.notBeforeMs, input.nowMs, progress.updatedMs);
    if (idempotency !== undefined) this.#insertIdem.run(input.keyId, idempotency.key, idempotency.fingerprint, input.id);
    return { kind: 'created', job: this.get(input.id)! };
  }

  #claimNow(nowMs: number): Claim {
    const due = this.#due.get(nowMs);
    if (due === undefined) {
      const at = this.#next.get()?.at ?? null;
      return { wakeAtMs: at ?? undefined };
    }
    this.#move(due.id, (job) => claimed(job, nowMs));
    return { job: this.get(due.id)! };
  }

  /** Applies a move to a job in one transaction (read, decide, write); false when there is no job or it declined. */
  #move(id: string, move: Move, content?: ReportContent): boolean {
    return this.#db.transaction(() => {
      const row = this.#get.get(id);
      const next = row && move(toJob(row));
      if (next === undefined) return false;
      this.#write.run({
        id, state: next.state, attempts: next.attempts, not_before_ms: next.notBeforeMs, last_error: next.lastError ?? null,
        detail: next.detail ?? null, updated_ms: next.updatedMs, completed_ms: next.completedMs ?? null,
        finished_ms: next.finishedMs ?? null, pdf_ms: next.pdfMs ?? null, expired_ms: next.expiredMs ?? null,
        has_content: next.hasContent ? 1 : 0, content: content === undefined ? null : JSON.stringify(content),
      });
      return true;
    })();
  }
}
