import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BELAQI_LABELS } from '../../../src/classification/belaqi.js';
import { WIND_CLASS_LABELS } from '../../../src/classification/wind.js';
import { MONTH_KEYS } from '../../../src/stats/blocks.js';
import { SEASONS } from '../../../src/stats/calendar.js';
import { getScale } from '../../../src/scales/index.js';
import { utciClass } from '../../../src/scales/classify.js';
import { composeReport } from '../../../src/reports/content/compose/index.js';
import type { ReportContentV1 } from '../../../src/reports/content/content-model.js';
import { esc } from '../../../src/reports/content/figures/svg.js';
import { renderReportHtml } from '../../../src/reports/render/html/render-html.js';
import { MESSAGES } from '../../../src/reports/content/i18n/index.js';
import { documentPdf, renderReportPdf } from '../../../src/reports/render/pdf/render-pdf.js';
import type { ReportLang } from '../../../src/reports/report-types.js';
import { fixtureSource, gatherAll } from '../support/gather.js';

const run = promisify(execFile);
const LANGS: readonly ReportLang[] = ['en', 'fr', 'nl'];

let brussels: Record<ReportLang, ReportContentV1>;
let namur: Record<ReportLang, ReportContentV1>;
let dir: string;

beforeAll(async () => {
  const { source, close } = await fixtureSource();
  try {
    brussels = await gatherAll(source, 'brussels');
    namur = await gatherAll(source, 'namur');
  } finally {
    await close();
  }
  dir = await mkdtemp(join(tmpdir(), 'svc-report-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const html = (content: ReportContentV1) => new TextDecoder().decode(renderReportHtml(content));

/** A number as the language writes it with one decimal (decimal comma in French and Dutch). */
const oneDecimal = (lang: ReportLang, x: number) => x.toFixed(1).replace('.', lang === 'en' ? '.' : ',');

/** The `<svg>` element whose accessible label is `label`. */
function svgLabelled(page: string, label: string): string {
  const start = page.indexOf(`aria-label="${label}"`);
  expect(start, `figure ${label}`).toBeGreaterThan(0);
  return page.slice(page.lastIndexOf('<svg', start), page.indexOf('</svg>', start));
}

/** The bars of a chart: value, fill and height, in drawing order. */
function bars(svg: string): { value: number; fill: string; height: number; series: string | undefined }[] {
  return [...svg.matchAll(/<rect [^>]*data-value="([^"]+)"[^>]*>/g)].map(([tag, value]) => ({
    value: Number(value),
    fill: /fill="([^"]+)"/.exec(tag)![1],
    height: Number(/height="([^"]+)"/.exec(tag)![1]),
    series: /data-series="([^"]+)"/.exec(tag)?.[1],
  }));
}

describe('HTML report', () => {
  for (const lang of LANGS) {
    it(`is self-contained in ${lang}: no URL, link, script, source or style import of any kind`, () => {
      for (const page of [html(brussels[lang]), html(namur[lang])]) {
        expect(page.startsWith('<!DOCTYPE html>')).toBe(true);
        expect(page).toContain(`<html lang="${lang}">`);
        expect(page).not.toMatch(/https?:/i);
        expect(page).not.toMatch(/\/\//);
        expect(page).not.toMatch(/url\s*\(/i);
        expect(page).not.toMatch(/<link\b/i);
        expect(page).not.toMatch(/<script\b/i);
        expect(page).not.toMatch(/<img\b/i);
        expect(page).not.toMatch(/\b(src|href|xlink:href)\s*=/i);
        expect(page).not.toMatch(/@import|@font-face/i);
      }
    });

    it(`is written in ${lang}: official BelAQI labels, translated headings and classes, locale numbers`, () => {
      const t = MESSAGES[lang];
      const page = html(brussels[lang]);
      for (const label of t.belaqiLabels) expect(page).toContain(label);
      for (const label of t.windClasses) expect(page).toContain(label);
      for (const title of Object.values(t.metricNames)) expect(page).toContain(esc(title));
      for (const season of Object.values(t.seasons)) expect(page).toContain(season);
      expect(page).toContain(t.title);
      expect(page).toContain(`${oneDecimal(lang, brussels[lang].statistics.air!.rating)}</strong>`);
    });
  }

  it('draws each chart from the statistics it shows (values, class colours, bar heights)', () => {
    const c = brussels.en;
    const t = MESSAGES.en;
    const page = html(c);
    const air = c.statistics.air!;
    const monthly = bars(svgLabelled(page, t.air.monthlyTitle));
    expect(monthly.map((b) => b.value)).toEqual(MONTH_KEYS.map((m) => air.monthly_good_pct[m]));
    // On a 0–100 axis the height of every bar is proportional to its value.
    const perPercent = monthly[0].height / monthly[0].value;
    for (const b of monthly) expect(b.height).toBeCloseTo(b.value * perPercent, 1);

    const belaqi = bars(svgLabelled(page, t.air.distributionTitle));
    expect(belaqi.map((b) => b.value)).toEqual(BELAQI_LABELS.map((l) => air.distribution_pct[l]));
    expect(belaqi.map((b) => b.fill)).toEqual(getScale('air-belaqi')!.classes.map((k) => k.color));

    const wind = c.statistics.wind!;
    const windBars = bars(svgLabelled(page, t.wind.distributionTitle));
    expect(windBars.map((b) => b.value)).toEqual(WIND_CLASS_LABELS.map((l) => wind.distribution_pct[l]));
    expect(windBars.map((b) => b.fill)).toEqual(getScale('wind-nen8100')!.classes.map((k) => k.color));
    expect(bars(svgLabelled(page, t.wind.monthlyTitle)).map((b) => b.value))
      .toEqual(MONTH_KEYS.map((m) => wind.monthly_mean_ucomfort_ms[m]));

    const thermal = c.statistics.thermal!;
    const seasonal = bars(svgLabelled(page, t.thermal.seasonalTitle));
    expect(seasonal.filter((b) => b.series === '0').map((b) => b.value)).toEqual(SEASONS.map((s) => thermal.seasonal_comfort_pct[s]));
    expect(seasonal.filter((b) => b.series === '1').map((b) => b.value)).toEqual(SEASONS.map((s) => thermal.seasonal_acceptable_pct[s]));
    const utci = bars(svgLabelled(page, t.thermal.monthlyTitle));
    expect(utci.map((b) => b.value)).toEqual(MONTH_KEYS.map((m) => thermal.monthly_mean_utci_c[m]));
    const utciColours = getScale('thermal-utci')!.classes;
    for (const b of utci) expect(b.fill).toBe(utciColours[utciClass(b.value)! - 1].color);
  });

  it('shows the nationwide report without wind, says why, and draws the regional map with the border', () => {
    const t = MESSAGES.fr;
    const page = html(namur.fr);
    expect(page).not.toContain(`aria-label="${t.wind.distributionTitle}"`);
    expect(page).toContain(esc(t.summary.absent(t.summary.absentNames.wind, t.summary.notModelled)));
    expect(page).toContain('belgium_lowres');
    expect(svgLabelled(page, t.surroundings.no2Title)).toContain('<path d="M');
  });
});

/** pdfinfo's page sizes and count. */
async function pdfPages(file: string): Promise<{ pages: number; sizes: string[] }> {
  const { stdout } = await run('pdfinfo', ['-f', '1', '-l', '99', file]);
  const pages = Number(/^Pages:\s+(\d+)/m.exec(stdout)![1]);
  const sizes = [...stdout.matchAll(/^Page\s+\d+ size:\s+(.+)$/gm)].map((m) => m[1].trim());
  return { pages, sizes };
}

describe('PDF report', () => {
  for (const lang of LANGS) {
    it(`is A4 with extractable ${lang} text, locale numbers and pages that render`, async () => {
      const t = MESSAGES[lang];
      const c = brussels[lang];
      const file = join(dir, `brussels-${lang}.pdf`);
      await writeFile(file, await renderReportPdf(c));
      const { pages, sizes } = await pdfPages(file);
      expect(pages).toBeGreaterThanOrEqual(4);
      expect(sizes).toHaveLength(pages);
      for (const size of sizes) expect(size).toBe('595.28 x 841.89 pts (A4)');

      const { stdout: text } = await run('pdftotext', ['-enc', 'UTF-8', file, '-']);
      const flat = text.replace(/\s+/g, ' ');
      expect(flat).toContain(t.title);
      for (const title of Object.values(t.metricNames)) expect(flat).toContain(title);
      for (const label of t.belaqiLabels) expect(flat).toContain(label);
      for (const label of t.windClasses) expect(flat).toContain(label);
      expect(flat).toContain('NO₂');
      expect(flat).toContain(`${oneDecimal(lang, c.statistics.air!.rating)} / 10`);
      expect(flat).toContain(t.page(1, pages));

      const { stderr } = await run('pdftoppm', ['-png', '-r', '30', file, join(dir, `page-${lang}`)]);
      expect(stderr).toBe('');
      const images = (await readdir(dir)).filter((f) => f.startsWith(`page-${lang}`) && f.endsWith('.png'));
      expect(images).toHaveLength(pages);
      for (const image of images) expect((await stat(join(dir, image))).size).toBeGreaterThan(1000);
    });
  }

  it('draws every figure without an SVG feature svg-to-pdfkit cannot render', async () => {
    for (const c of [brussels.en, namur.nl]) {
      const { warnings } = await documentPdf(composeReport(c), c.generatedUtc);
      expect(warnings).toEqual([]);
    }
  });

  it('renders the nationwide report in Dutch, without a wind section', async () => {
    const t = MESSAGES.nl;
    const file = join(dir, 'namur-nl.pdf');
    await writeFile(file, await renderReportPdf(namur.nl));
    const { sizes } = await pdfPages(file);
    for (const size of sizes) expect(size).toBe('595.28 x 841.89 pts (A4)');
    const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', file, '-']);
    const flat = stdout.replace(/\s+/g, ' ');
    expect(flat).toContain(t.location.nationwideArea);
    expect(flat).toContain(t.summary.absent(t.summary.absentNames.wind, t.summary.notModelled));
    expect(flat).not.toContain(t.wind.distributionTitle);
    expect(flat).toContain(oneDecimal('nl', namur.nl.statistics.thermal!.rating));
  });
});
