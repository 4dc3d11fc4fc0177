/**
 * End to end: the files a client downloads, from the real service with the real report content and renderers, over
 * real HTTP, checked with Debian's poppler tools: for each language the PDF's every page is A4 (`pdfinfo`), its text
 * holds the language's labels and the address (`pdftotext`), and every page renders (`pdftoppm`); the HTML names the
 * language, holds the same labels and refers to nothing outside itself. The renderers' own tests check the layout
 * and numbers in detail; this checks what delivery hands out.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/reports/content/i18n/index.js';
import { REPORT_LANGS, type ReportLang } from '../../src/reports/report-types.js';
import { startE2eServer, type E2eServer } from './support/e2e-server.js';

let e2e: E2eServer;
let key: string;
let dir: string;
beforeAll(async () => {
  e2e = await startE2eServer();
  key = e2e.issue({ label: 'e2e report files', products: ['reports'] });
  dir = await mkdtemp(join(tmpdir(), 'svc-report-files-'));
});
afterAll(async () => {
  await e2e?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Requests a report and polls until it is completed with both files; returns the status document. */
async function completedReport(body: object): Promise<{ job_id: string; address: string; files: { html: { url: string }; pdf: { url: string } } }> {
  const accepted = await e2e.post('/v1/reports', body, key);
  expect(accepted.status, accepted.text).toBe(202);
  for (let i = 0; i < 1_500; i++) {
    const status = await e2e.get(accepted.json.links.status, key);
    expect(status.json.status, status.text).not.toBe('failed');
    if (status.json.status === 'completed' && status.json.files.pdf !== undefined) return status.json;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the report never completed');
}

async function download(url: string): Promise<{ bytes: Buffer; type: string | null; disposition: string | null }> {
  const res = await fetch(`${e2e.base}${url}`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return { bytes: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition') };
}

/** Text with every run of white space as one space (a PDF's lines break where its layout does). */
const flat = (text: string) => text.replace(/\s+/g, ' ');

/** Pages of a PDF file and the size of each, from pdfinfo. */
function pageSizes(file: string): string[] {
  const pages = Number(/^Pages:\s+(\d+)$/m.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]);
  const info = execFileSync('pdfinfo', ['-f', '1', '-l', String(pages), file], { encoding: 'utf8' });
  return [...info.matchAll(/^Page\s+\d+ size:\s+(.+)$/gm)].map((m) => m[1]!.trim());
}

/** Every reference in the HTML that would load something from elsewhere. */
function externalReferences(html: string): string[] {
  const found: string[] = [];
  for (const m of html.matchAll(/\b(?:src|href|action|poster|data|srcset)\s*=\s*["']?([^"'\s>]+)/gi)) {
    if (!/^(?:data:|#)/i.test(m[1]!)) found.push(m[0]);
  }
  for (const m of html.matchAll(/url\(\s*["']?([^"')]+)/gi)) if (!/^(?:data:|#)/i.test(m[1]!)) found.push(m[0]);
  for (const m of html.matchAll(/(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}/gi)) {
    // Namespace names of inline SVG are identifiers, never fetched.
    if (!/^http:\/\/www\.w3\.org$/i.test(m[0])) found.push(m[0]);
  }
  for (const m of html.matchAll(/<(?:link|script|iframe|object|embed|base)\b[^>]*>/gi)) found.push(m[0]);
  return found;
}

describe.each(REPORT_LANGS)('a report in %s, as downloaded', (lang: ReportLang) => {
  const t = MESSAGES[lang];
  let report: Awaited<ReturnType<typeof completedReport>>;
  beforeAll(async () => {
    report = await completedReport({ address: 'Grand-Place 1, 1000 Bruxelles', radius: 25, lang });
  });

  it('PDF: A4 on every page, the language\'s labels in its text, every page rendered', async () => {
    const pdf = await download(report.files.pdf.url);
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.disposition).toBe('attachment; filename="SVC_Report_Grand-Place_1_1000_Bruxelles.pdf"');
    const file = join(dir, `${lang}.pdf`);
    await writeFile(file, pdf.bytes);

    const sizes = pageSizes(file);
    expect(sizes.length).toBeGreaterThan(0);
    for (const size of sizes) expect(size).toMatch(/^595\.2\d? x 841\.8\d? pts \(A4\)/);

    const text = flat(execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }));
    for (const label of [t.title, t.metricNames.air, t.metricNames.wind, t.metricNames.thermal, t.location.title, t.belaqiLabels[1]!]) {
      expect(text, label).toContain(flat(label));
    }
    expect(text).toContain('Grand-Place 1, 1000 Bruxelles');

    const pages = join(dir, `${lang}-page`);
    execFileSync('pdftoppm', ['-png', '-r', '20', file, pages]);
    const rendered = (await readdir(dir)).filter((f) => f.startsWith(`${lang}-page`) && f.endsWith('.png'));
    expect(rendered).toHaveLength(sizes.length);
  });

  it('HTML: the language, its labels, and nothing from elsewhere', async () => {
    const html = await download(report.files.html.url);
    expect(html.type).toBe('text/html; charset=utf-8');
    const text = html.bytes.toString('utf8');
    expect(text).toMatch(new RegExp(`<html[^>]*\\blang="${lang}"`));
    for (const label of [t.title, t.metricNames.air, t.location.title]) expect(flat(text)).toContain(flat(label).replace(/’/g, '’'));
    expect(externalReferences(text)).toEqual([]);
  });
});

describe('a nationwide report', () => {
  it('completes with both files, labelled by its coordinates or the address found there', async () => {
    const report = await completedReport({ lat: 50.4669, lon: 4.8675, lang: 'nl' });
    const pdf = await download(report.files.pdf.url);
    const file = join(dir, 'nationwide.pdf');
    await writeFile(file, pdf.bytes);
    for (const size of pageSizes(file)) expect(size).toMatch(/^595\.2\d? x 841\.8\d? pts \(A4\)/);
    expect(flat(execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }))).toContain(MESSAGES.nl.location.nationwideArea);
    expect(externalReferences((await download(report.files.html.url)).bytes.toString('utf8'))).toEqual([]);
  });
});
