/**
 * The rendering pool (src/reports/render/render-pool.ts) over real threads running the real task handler with test renderers
 * (test/reports/support/fake-render-worker.mjs): documents come back as bytes, a renderer's failure comes back as an error
 * rebuilt on this side (retried by the runner, its text never shown), and a thread that dies fails only its task with
 * an UpstreamError while the pool replaces it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError, UpstreamError } from '../../../src/errors.js';
import { createRenderPool, type RenderPool } from '../../../src/reports/render/render-pool.js';
import { renderTaskHandler } from '../../../src/reports/render/render-protocol.js';
import type { ReportContent } from '../../../src/reports/report-types.js';
import { fakeHtml, fakePdf } from '../support/fake-report.js';
import { FAKE_RENDER_WORKER } from '../support/fake-render-worker.js';

const content = (extra: Record<string, unknown> = {}): ReportContent => ({
  version: 1,
  request: { address: 'Grand-Place 1, 1000 Bruxelles', lat: 50.84658, lon: 4.35194, radiusM: 10, lang: 'fr', keyId: 1 },
  generatedUtc: '2025-03-10T12:00:30.000Z',
  ...extra,
});

let pool: RenderPool;
beforeAll(() => {
  pool = createRenderPool({ threads: 1, filename: FAKE_RENDER_WORKER });
});
afterAll(async () => pool.close());

describe('render pool', () => {
  it('renders HTML and PDF in a thread', async () => {
    expect(new TextDecoder().decode(await pool.html(content()))).toBe(fakeHtml(content()));
    expect(Buffer.from(await pool.pdf(content())).equals(Buffer.from(fakePdf(content())))).toBe(true);
  });

  it('a renderer failure comes back as an internal error (retryable, text kept for the log)', async () => {
    const err = await pool.pdf(content({ fakeMode: 'fail' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).code).toBe('internal_error');
    expect((err as ServiceError).message).toBe('font missing');
  });

  it('a thread that dies fails its task with an UpstreamError, and the next task runs', async () => {
    await expect(pool.html(content({ fakeMode: 'crash' }))).rejects.toBeInstanceOf(UpstreamError);
    expect(new TextDecoder().decode(await pool.html(content()))).toBe(fakeHtml(content()));
  });

  it('refuses a thread count out of range', () => {
    expect(() => createRenderPool({ threads: 0 })).toThrow('from 1 to 64');
  });
});

describe('renderTaskHandler', () => {
  it('turns text into UTF-8 bytes and an empty document into an error', async () => {
    const handle = renderTaskHandler({ html: () => 'é', pdf: () => new Uint8Array() });
    expect(await handle({ format: 'html', content: content() })).toEqual({ ok: true, bytes: new Uint8Array([0xc3, 0xa9]) });
    expect(await handle({ format: 'pdf', content: content() })).toEqual({
      ok: false, error: { code: 'internal_error', message: 'The pdf renderer returned no document.' },
    });
  });
});
