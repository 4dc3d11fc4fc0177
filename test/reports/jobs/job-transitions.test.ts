/**
 * The job state machine as a pure function: which moves exist, which states are final, what each move writes (the
 * timestamps above all), and that a move declines on a job that is no longer where the caller thinks.
 */
import { describe, expect, it } from 'vitest';
import {
  acceptedProgress, advanced, canAdvance, claimed, expired, FINISHED_STATES, IN_HAND_STATES, pdfRecorded, requeued, type JobProgress,
} from '../../../src/reports/jobs/job-transitions.js';
import type { JobState } from '../../../src/reports/jobs/job-types.js';

const T = 1_700_000_000_000;
const STATES: readonly JobState[] = ['queued', 'running', 'delivering', 'completed', 'failed'];
const at = (state: JobState, more: Partial<JobProgress> = {}): JobProgress => ({ ...acceptedProgress(T), state, attempts: 1, ...more });

describe('the states', () => {
  it('has two final states and two in a runner\'s hand', () => {
    expect([...FINISHED_STATES].sort()).toEqual(['completed', 'failed']);
    expect([...IN_HAND_STATES].sort()).toEqual(['delivering', 'running']);
  });

  it('advances exactly along running → delivering → completed, and to failed from either in-hand state', () => {
    const moves = STATES.flatMap((from) => STATES.filter((to) => canAdvance(from, to)).map((to) => `${from}→${to}`));
    expect(moves).toEqual(['running→delivering', 'running→failed', 'delivering→completed', 'delivering→failed']);
  });

  it('throws on a move the machine does not have, whatever the job', () => {
    expect(() => advanced(at('queued'), 'queued', 'completed', T)).toThrow('cannot move from queued to completed');
    expect(() => advanced(at('completed'), 'completed', 'queued', T)).toThrow('cannot move from completed to queued');
  });
});

describe('the moves', () => {
  it('accepts a job queued, due at once, never claimed', () => {
    expect(acceptedProgress(T)).toEqual({
      state: 'queued', attempts: 0, notBeforeMs: T, hasContent: false, detail: undefined, lastError: undefined, updatedMs: T,
      completedMs: undefined, finishedMs: undefined, pdfMs: undefined, expiredMs: undefined,
    });
  });

  it('claims a due queued job, counting the attempt; not before it is due; a job in hand only when its lease lapsed', () => {
    const queued = { ...acceptedProgress(T), notBeforeMs: T + 10 };
    expect(claimed(queued, T + 9)).toBeUndefined();
    expect(claimed(queued, T + 10)).toEqual({ ...queued, state: 'running', attempts: 1, updatedMs: T + 10 });
    expect(claimed(at('delivering'), T + 20)).toBeUndefined();
    expect(claimed(at('delivering', { hasContent: true }), T + 20, true)).toMatchObject({ state: 'running', attempts: 2, hasContent: true });
    for (const state of FINISHED_STATES) expect(claimed(at(state), T + 20, true)).toBeUndefined();
  });

  it('stamps the generation time on completion and the finishing time on both final states', () => {
    const delivering = advanced(at('running'), 'running', 'delivering', T + 1, { content: { version: 1 } as never })!;
    expect(delivering).toMatchObject({ state: 'delivering', hasContent: true, updatedMs: T + 1, completedMs: undefined, finishedMs: undefined });
    expect(advanced(delivering, 'delivering', 'completed', T + 2)).toMatchObject({ state: 'completed', completedMs: T + 2, finishedMs: T + 2, hasContent: true });
    expect(advanced(delivering, 'delivering', 'failed', T + 3, { detail: 'no data' })).toMatchObject({
      state: 'failed', detail: 'no data', completedMs: undefined, finishedMs: T + 3,
    });
  });

  it('declines a move from a state the job is no longer in', () => {
    expect(advanced(at('delivering'), 'running', 'failed', T)).toBeUndefined();
  });

  it('requeues a job in hand with its back-off, keeping the last error unless a new one is given', () => {
    const back = requeued(at('running', { lastError: 'old' }), T + 500, T + 1)!;
    expect(back).toMatchObject({ state: 'queued', notBeforeMs: T + 500, updatedMs: T + 1, lastError: 'old', attempts: 1 });
    expect(requeued(at('delivering'), T, T, 'upstream down')).toMatchObject({ state: 'queued', lastError: 'upstream down' });
    for (const state of ['queued', 'completed', 'failed'] as const) expect(requeued(at(state), T, T)).toBeUndefined();
  });

  it('records a PDF on a completed job not expired, and nothing else', () => {
    expect(pdfRecorded(at('completed'), T + 5)).toMatchObject({ pdfMs: T + 5, updatedMs: T + 5 });
    expect(pdfRecorded(at('failed'), T + 5)).toBeUndefined();
    expect(pdfRecorded(at('completed', { expiredMs: T }), T + 5)).toBeUndefined();
  });

  it('expires a job once: it keeps its state and drops its content', () => {
    const gone = expired(at('completed', { hasContent: true, finishedMs: T }), T + 9)!;
    expect(gone).toMatchObject({ state: 'completed', expiredMs: T + 9, updatedMs: T + 9, hasContent: false, finishedMs: T });
    expect(expired(gone, T + 10)).toBeUndefined();
  });
});
