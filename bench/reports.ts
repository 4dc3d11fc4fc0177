/**
 * `npm run bench -- reports`: how fast a report is ready, end to end and per stage, over the fixture datasets.
 *
 * - End to end: the real service in its own process (bench/http-child.ts, `SVC_REPORT_PDF_WAIT_MS=0` so the poll that
 *   sees the HTML answers at once and the PDF's own readiness is visible), driven over HTTP like a client: POST, then
 *   a status poll every `POLL_MS` until `completed` (HTML ready), then until `files.pdf` (PDF ready; the first poll
 *   after the HTML started it). Times are from sending the POST; they include the polling granularity (≤ `POLL_MS`).
 *   `cold`: a location asked for the first time (statistics and surroundings computed); `cached`: the same locations
 *   again (both from the caches). Reports go one at a time.
 * - Throughput: `BURST` reports posted at once (cold locations, then the same again cached), each polled until its PDF
 *   is ready; reports per minute = BURST / elapsed. Default concurrency (2 jobs) and threads (compute = cores,
 *   1 rendering thread), on this machine's cores.
 * - Stages, in this process: gathering (cold and cached), the HTML and PDF renderers on this thread
 *   (bench/report-stages.ts), and the atomic file write (temporary name, fsync, rename, directory fsync).
 *
 * Targets with cached statistics: HTML ready ≤ 300 ms and PDF ready ≤ 700 ms, p50 end to end.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveCoverage } from '../src/cities/coverage.js';
import { computeDataset } from '../src/compute/datasets/dataset-cache.js';
import { createLocalCompute } from '../src/compute/local-compute.js';
import { planSample } from '../src/compute/planning/sample-plan.js';
import { openDatabase } from '../src/db/database.js';
import { DirectoryReportFiles } from '../src/reports/jobs/report-files.js';
import { SqliteKeyStore } from '../src/keys/key-store.js';
import { createReportContentSource, renderReportHtml, renderReportPdf } from '../src/reports/index.js';
import { REPORT_LANGS, type ReportRequest } from '../src/reports/report-types.js';
import { systemClock } from '../src/util/clock.js';
import { statsRequestAt } from '../src/services/historical-answer.js';
import { HistoricalService } from '../src/services/historical-service.js';
import { MemoryStatsCache } from '../src/services/memory-stats-cache.js';
import { SqliteStatsCache } from '../src/services/stats-cache.js';
import { benchData } from './http.js';
import { startChild, type ServerChild } from './http-load.js';
import type { BenchResult } from './registry.js';
import { stageMedians, timeReportStages } from './report-stages.js';
import { measureOnce, median } from './timing.js';

const POLL_MS = 5;
/** Locations of the one-at-a-time rounds (each cold once, then cached). */
const SERIAL = 12;
/** Reports posted at once for the throughput runs. */
const BURST = 24;
const TARGET_HTML_MS = 300;
const TARGET_PDF_MS = 700;

/**
 * Places in the street-level zone around Grand-Place whose 25 m radius holds outdoor cells (a report elsewhere would
 * fail: the radius is never widened), found on a 0.0003° lattice from the outdoor mask alone (nothing is computed).
 */
async function places(dataDir: string, count: number): Promise<{ lat: number; lon: number; radius: number }[]> {
  const found: { lat: number; lon: number; radius: number }[] = [];
  for (let i = 0; found.length < count && i < 10_000; i++) {
    const lat = Number((50.8430 + (i % 24) * 0.0003).toFixed(5));
    const lon = Number((4.3460 + Math.floor(i / 24) * 0.0003).toFixed(5));
    const coverage = resolveCoverage(lat, lon);
    if (coverage.kind !== 'city' || coverage.dataset !== 'brussels_extended') continue;
    try {
      planSample(await computeDataset(dataDir, coverage.dataset), statsRequestAt({ lat, lon, coverage }, 25));
      found.push({ lat, lon, radius: 25 });
    } catch {
      // No outdoor cell within 25 m: skip.
    }
  }
  if (found.length < count) throw new Error(`Only ${found.length} places with outdoor cells found; ${count} needed.`);
  return found;
}

/** What one report took from the POST: to the HTML, to the PDF. */
interface ReportTimes {
  readonly htmlMs: number;
  readonly pdfMs: number;
}

/** Polls until the job's HTML and then its PDF are ready; times from `t0`. */
async function untilReady(child: ServerChild, key: string, statusUrl: string, t0: number): Promise<ReportTimes> {
  let htmlMs: number | undefined;
  for (;;) {
    const res = await fetch(`${child.url}${statusUrl}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { status: string; files?: { pdf?: unknown }; detail?: string };
    if (body.status === 'failed') throw new Error(`report failed: ${body.detail}`);
    if (body.status === 'completed') {
      htmlMs ??= performance.now() - t0;
      if (body.files?.pdf !== undefined) return { htmlMs, pdfMs: performance.now() - t0 };
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

async function post(child: ServerChild, key: string, body: object): Promise<string> {
  const res = await fetch(`${child.url}/v1/reports`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  const json = (await res.json()) as { links?: { status: string }; detail?: string };
  if (res.status !== 202) throw new Error(`POST /v1/reports answered ${res.status}: ${json.detail}`);
  return json.links!.status;
}

async function oneReport(child: ServerChild, key: string, body: object): Promise<ReportTimes> {
  const t0 = performance.now();
  return untilReady(child, key, await post(child, key, body), t0);
}

/** Posts `count` reports at once, waits until every PDF is ready; reports per minute. */
async function burst(child: ServerChild, key: string, at: readonly object[]): Promise<number> {
  const t0 = performance.now();
  const urls = await Promise.all(at.map((where, i) => post(child, key, { ...where, lang: REPORT_LANGS[i % 3] })));
  await Promise.all(urls.map((url) => untilReady(child, key, url, t0)));
  return (at.length / (performance.now() - t0)) * 60_000;
}

const p = (values: number[], q: number) => {
  const s = [...values].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]! * 10) / 10;
};
const r1 = (x: number) => Math.round(x * 10) / 10;

/** Per-stage times in this process (gather cold and cached, html, pdf, file write). */
async function stages(dataDir: string, dir: string, at: readonly { lat: number; lon: number }[]) {
  const db = openDatabase(join(dir, 'stages.sqlite'));
  const compute = await createLocalCompute({ dataDir, threads: availableParallelism() });
  try {
    const historical = new HistoricalService({
      backend: compute, geocoder: { stable: true, search: async () => [], reverse: async () => undefined },
      cache: new MemoryStatsCache(new SqliteStatsCache(db), 64 * 1024 * 1024), clock: systemClock, timeoutMs: 60_000, computeVersion: 'bench',
    });
    const source = createReportContentSource({ historical, surroundings: compute, clock: systemClock });
    const key = new SqliteKeyStore(db).create({ type: 'sk', label: 'bench stages' }, new Date()).record;
    const request = (i: number): ReportRequest => ({ lat: at[i]!.lat, lon: at[i]!.lon, address: 'Grand-Place 1, 1000 Bruxelles', radiusM: 25, lang: 'fr', keyId: key.id });
    const cold: number[] = [];
    for (let i = 0; i < 6; i++) cold.push((await measureOnce(async () => void (await source.gather(request(i), key)))).wallMs);
    const times = await timeReportStages({ source, request: request(0), key, rounds: 10 });
    const content = await source.gather(request(0), key);
    const files = await DirectoryReportFiles.open(join(dir, 'stage-files'));
    const html = renderReportHtml(content);
    const pdf = await renderReportPdf(content);
    const id = '00000000-0000-4000-8000-000000000001';
    const write: number[] = [];
    for (let i = 0; i < 10; i++) {
      write.push((await measureOnce(async () => {
        await files.write(id, 'html', html);
        await files.write(id, 'pdf', pdf);
      })).wallMs);
    }
    return { coldGather: median(cold), ...stageMedians(times), write: median(write), htmlBytes: times.htmlBytes, pdfBytes: times.pdfBytes, pdfPages: times.pdfPages };
  } finally {
    await compute.close();
    db.close();
  }
}

/** Runs the benchmark. */
export async function run(): Promise<BenchResult> {
  const dataDir = await benchData();
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-reports-'));
  try {
    // Distinct places for: the warm-up, the serial rounds, the burst, and the in-process stages.
    const at = await places(dataDir, 1 + SERIAL + BURST + 6);
    const serial = at.slice(1, 1 + SERIAL);
    const bursting = at.slice(1 + SERIAL, 1 + SERIAL + BURST);
    const stage = await stages(dataDir, dir, at.slice(1 + SERIAL + BURST));
    const overrides = { reportsDir: join(dir, 'reports'), reportPdfWaitMs: 0 };
    const child = await startChild(['service', dataDir, join(dir, 'svc.sqlite'), JSON.stringify(overrides)]);
    try {
      const key = await child.newKey();
      await oneReport(child, key, { ...at[0], lang: 'en' }); // warm-up: threads, kernels, fonts
      const cold: ReportTimes[] = [];
      const cached: ReportTimes[] = [];
      for (let i = 0; i < SERIAL; i++) cold.push(await oneReport(child, key, { ...serial[i], lang: REPORT_LANGS[i % 3] }));
      for (let i = 0; i < SERIAL; i++) cached.push(await oneReport(child, key, { ...serial[i], lang: REPORT_LANGS[(i + 1) % 3] }));
      const perMinCold = await burst(child, key, bursting);
      const perMinCached = await burst(child, key, bursting);

      const row = (measure: string, values: number[]) => ({ measure, p50_ms: p(values, 0.5), p90_ms: p(values, 0.9), n: values.length });
      const htmlCached = p(cached.map((t) => t.htmlMs), 0.5);
      const pdfCached = p(cached.map((t) => t.pdfMs), 0.5);
      const figures = {
        html_ready_cached_p50_ms: htmlCached,
        pdf_ready_cached_p50_ms: pdfCached,
        html_ready_cold_p50_ms: p(cold.map((t) => t.htmlMs), 0.5),
        pdf_ready_cold_p50_ms: p(cold.map((t) => t.pdfMs), 0.5),
        stage_gather_cold_ms: r1(stage.coldGather),
        stage_gather_cached_ms: stage.gather,
        stage_html_ms: stage.html,
        stage_pdf_ms: stage.pdf,
        stage_file_writes_ms: r1(stage.write),
        reports_per_min_cold: Math.round(perMinCold),
        reports_per_min_cached: Math.round(perMinCached),
        cores: availableParallelism(),
        html_bytes: stage.htmlBytes,
        pdf_bytes: stage.pdfBytes,
        pdf_pages: stage.pdfPages,
        targets_met: htmlCached <= TARGET_HTML_MS && pdfCached <= TARGET_PDF_MS,
      };
      return {
        name: 'reports',
        title: `Reports: time from POST to HTML and to PDF ready (fixture datasets, ${availableParallelism()} cores)`,
        columns: ['measure', 'p50_ms', 'p90_ms', 'n'],
        rows: [
          row('POST → HTML ready, cached statistics', cached.map((t) => t.htmlMs)),
          row('POST → PDF ready, cached statistics', cached.map((t) => t.pdfMs)),
          row('POST → HTML ready, cold', cold.map((t) => t.htmlMs)),
          row('POST → PDF ready, cold', cold.map((t) => t.pdfMs)),
          { measure: 'stage: gather, cold (statistics + surroundings)', p50_ms: r1(stage.coldGather), p90_ms: '', n: 6 },
          { measure: 'stage: gather, cached', p50_ms: stage.gather, p90_ms: '', n: 10 },
          { measure: 'stage: render HTML (one thread)', p50_ms: stage.html, p90_ms: '', n: 10 },
          { measure: 'stage: render PDF (one thread)', p50_ms: stage.pdf, p90_ms: '', n: 10 },
          { measure: 'stage: write HTML + PDF files (fsync, rename)', p50_ms: r1(stage.write), p90_ms: '', n: 10 },
        ],
        notes: [
          `Throughput, ${BURST} reports posted at once, each to its PDF: ${Math.round(perMinCold)} reports/min cold, ${Math.round(perMinCached)} reports/min cached (${availableParallelism()} cores, 2 jobs at a time, 1 rendering thread).`,
          `Targets (cached statistics, p50): HTML ≤ ${TARGET_HTML_MS} ms: ${htmlCached <= TARGET_HTML_MS ? 'met' : 'NOT met'} (${htmlCached} ms); PDF ≤ ${TARGET_PDF_MS} ms: ${pdfCached <= TARGET_PDF_MS ? 'met' : 'NOT met'} (${pdfCached} ms).`,
          `End-to-end times include polling every ${POLL_MS} ms; the PDF is rendered on the first poll after the HTML is ready. A report: ${stage.htmlBytes} B of HTML, ${stage.pdfPages} A4 pages of PDF in ${stage.pdfBytes} B.`,
        ],
        figures,
      };
    } finally {
      await child.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
