/**
 * End to end over real HTTP: the real service (`createServer` as `svc serve` builds it: SQLite jobs, report files on
 * disk, the report content over real statistics and compute, rendering threads) and its reports product. The files
 * themselves (A4, languages, self-contained HTML) are checked in report-files.test.ts.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REPORTS_WIRING, type ReportsWiring } from '../../src/nodes/api-node.js';
import type { ReportContentSource } from '../../src/reports/report-types.js';
import { Gate } from '../reports/support/fake-report.js';
import { embeddedGeocoder } from '../api/support/harness.js';
import { expectProblem, startE2eServer, until, type E2eResponse, type E2eServer } from './support/e2e-server.js';

let e2e: E2eServer;
let key: string;
beforeAll(async () => {
  e2e = await startE2eServer();
  key = e2e.issue({ label: 'e2e reports', products: ['reports'] });
});
afterAll(async () => e2e?.close());

/** Polls the status until the job is no longer processing (the poll itself is what renders the PDF). */
async function finished(server: E2eServer, id: string, k = key): Promise<E2eResponse> {
  for (let i = 0; i < 600; i++) {
    const res = await server.get(`/v1/reports/${id}`, k);
    // A client polls on while the PDF is pending, as docs/api.md tells it to: the job completes with its HTML first.
    if (res.json?.status !== 'processing' && res.json?.pdf_pending !== true) return res;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`job ${id} never finished`);
}

describe('reports over HTTP', () => {
  it('an address: 202, then completed with both files, downloaded as attachments', async () => {
    const accepted = await e2e.post('/v1/reports', { address: 'Grand-Place 1, 1000 Bruxelles', radius: 25, lang: 'fr' }, key);
    expect(accepted.status, accepted.text).toBe(202);
    const id = accepted.json.job_id as string;
    expect(accepted.headers.get('location')).toBe(`/v1/reports/${id}`);

    const done = await finished(e2e, id);
    expect(done.json).toEqual({
      job_id: id, status: 'completed', address: 'Grand-Place 1, 1000 Bruxelles', lang: 'fr',
      files: { html: { url: `/v1/reports/${id}/download?format=html` }, pdf: { url: `/v1/reports/${id}/download?format=pdf` } },
      expires_in_days: 30,
    });

    const html = await e2e.get(done.json.files.html.url, key);
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.headers.get('content-disposition')).toBe('attachment; filename="SVC_Report_Grand-Place_1_1000_Bruxelles.html"');
    expect(html.text).toMatch(/^<!doctype html>\s*<html lang="fr"[^>]*>.*Grand-Place 1, 1000 Bruxelles.*<\/html>\s*$/is);

    const pdf = await fetch(`${e2e.base}${done.json.files.pdf.url}`, { headers: { authorization: `Bearer ${key}` } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(Number(pdf.headers.get('content-length'))).toBe(bytes.length);

    // The content kept with the job describes the location as the statistics found it.
    expect(e2e.server.reports.store.content(id)).toMatchObject({ location: { dataset: 'brussels_extended', radiusM: 25 } });
  });

  it('coordinates elsewhere in Belgium: labelled by reverse geocoding, answered nationwide', async () => {
    const accepted = await e2e.post('/v1/reports', { lat: 50.4669, lon: 4.8675 }, key);
    expect(accepted.status, accepted.text).toBe(202);
    const done = await finished(e2e, accepted.json.job_id);
    expect(done.json.status).toBe('completed');
    // The embedded gazetteer holds no address near this point: the label is the coordinates, 5 decimals.
    expect(await embeddedGeocoder().reverse(50.4669, 4.8675)).toBeUndefined();
    expect(done.json.address).toBe('50.46690, 4.86750');
    expect(done.json.lang).toBe('en');
    expect(e2e.server.reports.store.content(accepted.json.job_id)).toMatchObject({ location: { dataset: 'belgium_lowres' } });
  });

  it('a radius holding no outdoor cell centre: the report samples as the statistics do without a radius, and says so', async () => {
    // A 5 m radius around this point of the fixture holds no outdoor cell centre: GET /historical/stats refuses it ...
    const statsKey = e2e.issue({ products: ['historical'] });
    expectProblem(await e2e.get('/v1/historical/stats?lat=50.84675&lon=4.35224&radius=5', statsKey), 422, 'outside_coverage');
    const unradiused = await e2e.get('/v1/historical/stats?lat=50.84675&lon=4.35224', statsKey);
    // ... an accepted report does not fail for it: it uses the point rules (containing cell, or nearest outdoor cells).
    const accepted = await e2e.post('/v1/reports', { lat: 50.84675, lon: 4.35224, radius: 5 }, key);
    const done = await finished(e2e, accepted.json.job_id);
    expect(done.json.status).toBe('completed');
    expect(e2e.server.reports.store.content(accepted.json.job_id)).toMatchObject({
      location: { sampling: unradiused.json.meta.sampling, nCells: unradiused.json.meta.n_cells },
    });
  });

  it('bad bodies are problem documents, and nothing is created', async () => {
    const before = e2e.server.db.prepare('SELECT COUNT(*) AS n FROM report_jobs').get() as { n: number };
    expectProblem(await e2e.post('/v1/reports', 'address=Grand-Place', key, { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
    expectProblem(await e2e.post('/v1/reports', '{"address": ', key), 400, 'validation_error');
    expectProblem(await e2e.post('/v1/reports', '{"lat": 1e309, "lon": 4}', key), 400, 'validation_error');
    expectProblem(await e2e.post('/v1/reports', { address: 'x'.repeat(201) }, key), 400, 'validation_error');
    expectProblem(await e2e.post('/v1/reports', { address: 'x'.repeat(100_000) }, key), 413, 'payload_too_large');
    expectProblem(await e2e.post('/v1/reports', { lat: 48.85661, lon: 2.35222 }, key), 422, 'outside_coverage');
    expectProblem(await e2e.post('/v1/reports', { lat: 50.8466, lon: 4.3519 }), 401, 'unauthorized');
    const after = e2e.server.db.prepare('SELECT COUNT(*) AS n FROM report_jobs').get() as { n: number };
    expect(after.n).toBe(before.n);
  });

  it('a job belongs to its key; an Idempotency-Key makes a retry safe', async () => {
    const first = await e2e.post('/v1/reports', { lat: 50.8466, lon: 4.3519, radius: 25 }, key, { 'idempotency-key': 'e2e-1' });
    const retry = await e2e.post('/v1/reports', { radius: 25, lat: 50.8466, lon: 4.3519 }, key, { 'idempotency-key': 'e2e-1' });
    expect(retry.json.job_id).toBe(first.json.job_id);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const other = e2e.issue({ products: ['reports'] });
    expectProblem(await e2e.get(`/v1/reports/${first.json.job_id}`, other), 404, 'not_found');
    expect((await finished(e2e, first.json.job_id)).json.status).toBe('completed');
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await e2e.get('/v1/openapi.json')).json;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/reports', '/v1/reports/{job_id}', '/v1/reports/{job_id}/download']));
  });
});

describe('restart', () => {
  it('a job in hand when the service stops is resumed by the next one, on the same database and directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-e2e-restart-'));
    const config = { dbFile: join(dir, 'svc.sqlite'), reportsDir: join(dir, 'reports') };
    const gate = new Gate();
    let calls = 0;
    // The real content source, held before it starts until the gate opens (or the job is aborted).
    const held: ReportsWiring = {
      content: (parts): ReportContentSource => {
        const real = DEFAULT_REPORTS_WIRING.content(parts);
        return {
          async gather(request, k, signal) {
            calls++;
            await Promise.race([gate.wait(), new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)))]);
            return real.gather(request, k, signal);
          },
        };
      },
    };
    try {
      const first = await startE2eServer({ reports: held, config });
      const k = first.issue({ products: ['reports'] });
      const id = (await first.post('/v1/reports', { lat: 50.8466, lon: 4.3519, radius: 25 }, k)).json.job_id as string;
      await until(() => calls === 1);
      expect((await first.get(`/v1/reports/${id}`, k)).json.stage).toBe('running');
      await first.close();

      const second = await startE2eServer({ config });
      try {
        const done = await finished(second, id, k);
        expect(done.json.status).toBe('completed');
        expect((await second.server.reports.store.get(id))!.attempts).toBe(2);
        expect((await second.get(done.json.files.html.url, k)).status).toBe(200);
        expect((await readdir(config.reportsDir)).sort()).toEqual([`${id}.html`, `${id}.pdf`]);
      } finally {
        await second.close();
      }
    } finally {
      gate.open();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
