/** The verdict on a settled task and the bytes of its answer, without NATS (the loop's behaviour is task-queue.test.ts). */
import { describe, expect, it } from 'vitest';
import { answerMessage, classifyTask } from '../../src/cluster/task-outcome.js';
import { DatasetError, errorToData, UpstreamError } from '../../src/errors.js';

const bytes = new Uint8Array([1, 2, 3]);

describe('classifyTask', () => {
  it('answers a value, and acknowledges a redelivery already answered without an answer', () => {
    expect(classifyTask({ state: 'done', bytes }, 1, 5)).toEqual({ action: 'answer', outcome: { ok: true, bytes } });
    expect(classifyTask({ state: 'already-answered' }, 2, 5)).toEqual({ action: 'acknowledge' });
  });

  it('hands an aborted task back without a failure to log', () => {
    expect(classifyTask({ state: 'aborted' }, 5, 5)).toEqual({ action: 'hand-back' });
  });

  it('answers a service error as data on any delivery', () => {
    const error = new DatasetError('no such dataset');
    expect(classifyTask({ state: 'failed', error }, 1, 5)).toEqual({ action: 'answer', outcome: { ok: false, error } });
  });

  it('hands any other failure back until the last delivery, which answers it as an upstream error', () => {
    const error = new Error('thread lost');
    expect(classifyTask({ state: 'failed', error }, 4, 5)).toEqual({ action: 'hand-back', failure: 'thread lost' });
    const last = classifyTask({ state: 'failed', error }, 5, 5);
    expect(last.action).toBe('answer');
    const outcome = last.action === 'answer' ? last.outcome : undefined;
    expect(outcome?.ok).toBe(false);
    const answered = outcome?.ok === false ? outcome.error : undefined;
    expect(answered).toBeInstanceOf(UpstreamError);
    expect(answered?.message).toBe('The compute task failed on 5 deliveries: thread lost');
    expect(classifyTask({ state: 'failed', error }, 9, Number.POSITIVE_INFINITY).action).toBe('hand-back');
  });
});

describe('answerMessage', () => {
  it('carries a value as its bytes and an error as its data', () => {
    expect(answerMessage({ ok: true, bytes }, 'stats', 8_192)).toEqual({ outcome: { ok: true, bytes }, data: bytes });
    const error = new DatasetError('gone');
    const message = answerMessage({ ok: false, error }, 'stats', undefined);
    expect(JSON.parse(Buffer.from(message.data).toString('utf8'))).toEqual(errorToData(error));
  });

  it('turns a result too large for the server into an error the operator can act on', () => {
    const large = new Uint8Array(8_192 - 4_096 + 1);
    const message = answerMessage({ ok: true, bytes: large }, 'tile', 8_192);
    expect(message.outcome.ok).toBe(false);
    const error = message.outcome.ok ? undefined : message.outcome.error;
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error?.message).toContain('exceeds the NATS server\'s max_payload (8192 bytes)');
    expect(answerMessage({ ok: true, bytes: large.subarray(1) }, 'tile', 8_192).outcome.ok).toBe(true);
  });
});
