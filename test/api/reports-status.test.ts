/**
 * `GET /v1/reports/{job_id}` and `GET /v1/reports/{job_id}/download`: the stages a job passes through, completion with
 * download links, the PDF rendered on the first poll after the HTML (pending while it renders or after it failed,
 * retried on each poll), failures with a short detail (permanent at once, transient after bounded retries with
 * back-off), ownership (another key's job does not exist), downloads with their names and media types, and retention.
 */
import { reportRequestOf } from '../../src/reports/jobs/job-types.js';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutsideCoverageError, UpstreamError, UpstreamTimeoutError } from '../../src/errors.js';
import { fakeHtml, fakePdf, Gate } from '../reports/support/fake-report.js';
import { T0 } from './support/harness.js';
import { expectProblem } from './support/problem.js';
import { reportsHarness, type ReportsHarnessOptions, type ReportsHarness } from './support/reports-harness.js';

let h: ReportsHarness;
let sk: string;
async function setUp(options: ReportsHarnessOptions = {}): Promise<void> {
  h = await reportsHarness(options);
  sk = h.issue({ products: ['reports'] });
}
beforeEach(async () => setUp());
afterEach(async () => h.close());

const auth = (key = sk) => ({ authorization: `Bearer ${key}` });
const status = (id: string, key = sk) => h.app.inject({ url: `/v1/reports/${id}`, headers: auth(key) });
const download = (id: string, format: string, key = sk, method: 'GET' | 'HEAD' = 'GET') =>
  h.app.inject({ method, url: `/v1/reports/${id}/download?format=${format}`, headers: auth(key) });

async function create(body: unknown = { address: 'Grand-Place 1, 1000 Bruxelles' }, key = sk): Promise<string> {
  const res = await h.app.inject({
    method: 'POST', url: '/v1/reports', headers: { 'content-type': 'application/json', ...auth(key) }, payload: JSON.stringify(body),
  });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().job_id as string;
}

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !done(); i++) await new Promise((r) => setImmediate(r));
  if (!done()) throw new Error('condition never held');
}

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('stages while processing', () => {
  it('queued, running, delivering, then completed', async () => {
    await h.close();
    await setUp({ start: false });
    const id = await create();
    expect((await status(id)).json()).toEqual({ job_id: id, status: 'processing', stage: 'queued' });

    h.content.gate = new Gate();
    h.runner.start();
    await until(() => h.content.calls.length === 1);
    expect((await status(id)).json()).toEqual({ job_id: id, status: 'processing', stage: 'running' });

    const render = new Gate();
    const html = h.renderer.html.bind(h.renderer);
    h.renderer.html = async (content) => (await render.wait(), html(content));
    h.content.gate.open();
    await until(() => h.store.get(id)!.state === 'delivering');
    expect((await status(id)).json()).toEqual({ job_id: id, status: 'processing', stage: 'delivering' });

    render.open();
    await h.settle();
    expect((await status(id)).json()).toMatchObject({ job_id: id, status: 'completed' });
  });
});

describe('completed', () => {
  it('lists address, language, both files and 30 days; the first poll rendered the PDF', async () => {
    const id = await create({ address: 'Grand-Place 1, 1000 Bruxelles', lang: 'nl' });
    await h.settle();
    expect(h.renderer.pdfCalls).toBe(0);
    const res = await status(id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-ratelimit-limit']).toBe('600');
    expect(res.json()).toEqual({
      job_id: id,
      status: 'completed',
      address: 'Grand-Place 1, 1000 Bruxelles',
      lang: 'nl',
      files: { html: { url: `/v1/reports/${id}/download?format=html` }, pdf: { url: `/v1/reports/${id}/download?format=pdf` } },
      expires_in_days: 30,
    });
    expect(h.renderer.pdfCalls).toBe(1);
    await status(id);
    expect(h.renderer.pdfCalls).toBe(1);
  });

  it('pdf_pending while the PDF renders past the wait, then the PDF once it is done', async () => {
    await h.close();
    await setUp({ pdfWaitMs: 500 });
    const id = await create();
    await h.settle();
    h.renderer.pdfGate = new Gate();
    const polling = status(id);
    await until(() => h.renderer.pdfCalls === 1);
    h.clock.advance(500);
    const pending = (await polling).json();
    expect(pending).toMatchObject({ status: 'completed', pdf_pending: true, files: { html: { url: `/v1/reports/${id}/download?format=html` } } });
    expect(pending.files).not.toHaveProperty('pdf');
    expectProblem(await download(id, 'pdf'), 'not_found');

    // A poll while it renders joins it rather than starting another.
    const joined = status(id);
    await new Promise((r) => setImmediate(r));
    expect(h.renderer.pdfCalls).toBe(1);
    h.renderer.pdfGate.open();
    const done = (await joined).json();
    expect(done.files.pdf).toEqual({ url: `/v1/reports/${id}/download?format=pdf` });
    expect(done).not.toHaveProperty('pdf_pending');
  });

  it('a failed PDF render leaves it pending, and the next poll renders it again', async () => {
    const id = await create();
    await h.settle();
    h.renderer.pdfFailures.push(new Error('font missing'));
    expect((await status(id)).json()).toMatchObject({ pdf_pending: true });
    expect((await status(id)).json().files.pdf).toBeDefined();
    expect(h.renderer.pdfCalls).toBe(2);
  });

  it('with no wait configured, the first poll answers pending at once', async () => {
    await h.close();
    await setUp({ pdfWaitMs: 0 });
    const id = await create();
    await h.settle();
    expect((await status(id)).json()).toMatchObject({ pdf_pending: true });
    await h.settle();
    expect((await status(id)).json().files.pdf).toBeDefined();
  });
});

describe('failed', () => {
  it('at once on a permanent failure, with a short detail', async () => {
    h.content.failures.push(new OutsideCoverageError('The radius of 5 m around 50.84658, 4.35194 holds no outdoor cell.'));
    const id = await create();
    await h.settle();
    expect((await status(id)).json()).toEqual({
      job_id: id, status: 'failed', detail: 'The radius of 5 m around 50.84658, 4.35194 holds no outdoor cell.',
    });
    expect(h.content.calls).toHaveLength(1);
    expectProblem(await download(id, 'html'), 'not_found');
  });

  it('a transient failure is retried after a back-off, then completes', async () => {
    h.content.failures.push(new UpstreamTimeoutError('The computation did not finish within 30 s.'));
    const id = await create();
    await h.settle();
    expect((await status(id)).json()).toEqual({ job_id: id, status: 'processing', stage: 'queued' });
    expect(h.store.get(id)).toMatchObject({ attempts: 1, notBeforeMs: T0 + 1_000, lastError: 'The computation did not finish within 30 s.' });
    h.clock.advance(999);
    await h.settle();
    expect(h.content.calls).toHaveLength(1);
    h.clock.advance(1);
    await h.settle();
    expect(h.content.calls).toHaveLength(2);
    expect((await status(id)).json().status).toBe('completed');
  });

  it('after the attempts run out (doubling back-off), with the last reason', async () => {
    for (let i = 0; i < 3; i++) h.content.failures.push(new UpstreamError('The compute back end failed; retrying is reasonable.'));
    const id = await create();
    await h.settle();
    h.clock.advance(1_000);
    await h.settle();
    expect(h.store.get(id)).toMatchObject({ attempts: 2, state: 'queued', notBeforeMs: T0 + 1_000 + 2_000 });
    h.clock.advance(2_000);
    await h.settle();
    expect((await status(id)).json()).toEqual({
      job_id: id, status: 'failed',
      detail: 'The report could not be generated after 3 attempts. The compute back end failed; retrying is reasonable.',
    });
  });

  it('an unexpected fault is retried too, and never shows its text to the client', async () => {
    for (let i = 0; i < 3; i++) h.content.failures.push(new Error('ENOSPC /var/lib/svc/secret'));
    const id = await create();
    for (const step of [0, 1_000, 2_000]) {
      h.clock.advance(step);
      await h.settle();
    }
    const body = (await status(id)).json();
    expect(body).toEqual({ job_id: id, status: 'failed', detail: 'The report could not be generated after 3 attempts. An internal error occurred.' });
  });
});

describe('ownership and ids', () => {
  it('another key gets 404 for the job and its files, exactly as for an unknown job', async () => {
    const id = await create();
    await h.settle();
    const other = h.issue({ products: ['reports'] });
    expect(expectProblem(await status(id, other), 'not_found').detail).toBe(`There is no report job '${id}'.`);
    expectProblem(await download(id, 'html', other), 'not_found');
    expect(expectProblem(await status(UNKNOWN), 'not_found').detail).toBe(`There is no report job '${UNKNOWN}'.`);
  });

  it.each(['not-a-uuid', '00000000-0000-1000-8000-000000000000', '00000000-0000-4000-8000-00000000000A', `${UNKNOWN}0`])(
    'a malformed id %s is a 400',
    async (id) => {
      expectProblem(await status(id), 'validation_error');
      expectProblem(await download(id, 'html'), 'validation_error');
    },
  );

  it('401 without a key, 403 without the product, 429 past the limit', async () => {
    const id = await create();
    expectProblem(await h.app.inject({ url: `/v1/reports/${id}` }), 'unauthorized');
    expectProblem(await h.app.inject({ url: `/v1/reports/${id}/download?format=html` }), 'unauthorized');
    const noReports = h.issue({ products: ['historical'] });
    expectProblem(await status(id, noReports), 'forbidden');
    expectProblem(await download(id, 'html', noReports), 'forbidden');
    const one = h.issue({ ratePerMin: 1 });
    expectProblem(await status(UNKNOWN, one), 'not_found');
    expectProblem(await status(UNKNOWN, one), 'rate_limited');
    expectProblem(await download(UNKNOWN, 'html', one), 'rate_limited');
  });
});

describe('download', () => {
  it('the HTML: attachment named from the address, UTF-8, self-contained policy', async () => {
    const id = await create({ address: 'Grand-Place 1, 1000 Bruxelles' });
    await h.settle();
    const res = await download(id, 'html');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="SVC_Report_Grand-Place_1_1000_Bruxelles.html"');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toBe(fakeHtml((h.store.content(id))!));
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)));
  });

  it('the PDF once a poll rendered it, with a non-ASCII name through filename*', async () => {
    const id = await create({ lat: 50.84658, lon: 4.35194 });
    await h.settle();
    const address = reportRequestOf(h.store.get(id)!).address;
    expectProblem(await download(id, 'pdf'), 'not_found');
    await status(id);
    const res = await download(id, 'pdf');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.equals(Buffer.from(fakePdf(h.store.content(id)!)))).toBe(true);
    const disposition = res.headers['content-disposition'] as string;
    expect(disposition).toMatch(/^attachment; filename="SVC_Report_[A-Za-z0-9._-]+\.pdf"/);
    if (/[^\x00-\x7f]/.test(address)) expect(disposition).toContain("filename*=UTF-8''SVC_Report_");
  });

  it('HEAD answers the headers without the body', async () => {
    const id = await create();
    await h.settle();
    const res = await download(id, 'html', sk, 'HEAD');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toBe('');
  });

  it('404 before the HTML exists', async () => {
    h.content.gate = new Gate();
    const id = await create();
    expect(expectProblem(await download(id, 'html'), 'not_found').detail).toContain('not generated yet');
    h.content.gate.open();
    await h.settle();
  });

  it.each(['', 'format=', 'format=doc', 'format=HTML', 'format=html&format=pdf'])('400 for the query %j', async (query) => {
    const res = await h.app.inject({ url: `/v1/reports/${UNKNOWN}/download?${query}`, headers: auth() });
    expectProblem(res, 'validation_error');
  });
});

describe('retention', () => {
  it('files are served for 30 days after generation, then 404, and the sweeper deletes them', async () => {
    const id = await create();
    await h.settle();
    await status(id);
    h.clock.set(T0 + 30 * 86_400_000 - 1);
    expect((await download(id, 'pdf')).statusCode).toBe(200);
    expect(await h.sweeper.sweep()).toBe(0);
    h.clock.advance(1);
    // Expired to the millisecond, before any sweep ran.
    expect(expectProblem(await download(id, 'html'), 'not_found').detail).toContain('expired');
    expect(expectProblem(await status(id), 'not_found').detail).toContain('expired');
    expect(await h.files.exists(id, 'html')).toBe(true);
    expect(await h.sweeper.sweep()).toBe(1);
    expect(await h.files.exists(id, 'html')).toBe(false);
    expect(await h.files.exists(id, 'pdf')).toBe(false);
    expect(h.store.get(id)!.expiredMs).toBe(T0 + 30 * 86_400_000);
    expect(h.store.content(id)).toBeUndefined();
    expect(await h.sweeper.sweep()).toBe(0);
    expectProblem(await download(id, 'html'), 'not_found');
  });

  it('the sweeper runs on its timer: at start, then every interval', async () => {
    const id = await create();
    await h.settle();
    h.sweeper.start();
    await h.sweeper.sweep(); // joins the sweep at start, after which the next is scheduled
    expect(h.store.get(id)!.expiredMs).toBeUndefined();
    expect(h.clock.pendingTimers).toBe(1);
    // The tick just before the end of retention finds nothing; the next one, an interval later, deletes the files.
    h.clock.set(T0 + 30 * 86_400_000 - 1);
    await until(() => h.clock.pendingTimers === 1);
    expect(h.store.get(id)!.expiredMs).toBeUndefined();
    h.clock.advance(3_600_000);
    await until(() => h.store.get(id)!.expiredMs !== undefined);
    expect(h.store.get(id)!.expiredMs).toBe(T0 + 30 * 86_400_000 - 1 + 3_600_000);
    expect(await h.files.exists(id, 'html')).toBe(false);
    await h.sweeper.stop();
    expect(h.clock.pendingTimers).toBe(0);
  });

  it('failed jobs expire too', async () => {
    h.content.failures.push(new OutsideCoverageError('nothing here'));
    const id = await create();
    await h.settle();
    h.clock.set(T0 + 30 * 86_400_000);
    expectProblem(await status(id), 'not_found');
    expect(await h.sweeper.sweep()).toBe(1);
  });
});
