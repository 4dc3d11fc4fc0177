/**
 * The pages the service shows people pass axe-core (every rule it runs by default: WCAG 2 A and AA, and its best
 * practices) in a real browser (Debian chromium through playwright-core): the API reference, the error catalogue, the
 * map page drawn with a key and asking for one, and an HTML report made by the reports product. axe-core is injected
 * as a script, which the Content-Security-Policy of the map page and of the report forbids, so the browser context
 * bypasses CSP here (and only here). Skipped, saying so, only when chromium is absent and `CI` is unset
 * (scripts/system-deps.sh installs it).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AxeResults } from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precomputedFixture } from '../../helpers/fixtures.js';
import { startE2eServer, type E2eServer } from '../support/e2e-server.js';
import { reportPage, type ShownPage } from '../support/shown-pages.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic'];
const runs = existsSync(CHROMIUM) || process.env.CI !== undefined;
if (!runs) console.warn(`accessibility browser test skipped: ${CHROMIUM} is absent (install chromium; CI always runs it)`);
/** Set to a directory to keep a full-page screenshot of every page checked (for looking at them). */
const SHOTS = process.env.SVC_TEST_SCREENSHOTS;
const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** The global the axe-core script defines. */
type Axe = { axe: { run(context: Document, options: { resultTypes: string[] }): Promise<AxeResults> } };

let e2e: E2eServer;
let browser: Browser;

/** A new page in a context that ignores the pages' CSP, so the axe-core script may be injected. */
async function openPage(width = 1280, height = 800): Promise<Page> {
  const context = await browser.newContext({ bypassCSP: true, viewport: { width, height } });
  return context.newPage();
}

/** axe-core's violations on the page as it is now, one line per offending element. */
async function violations(page: Page, name: string): Promise<string[]> {
  if (SHOTS) {
    await mkdir(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `a11y-${name}.png`), fullPage: true });
  }
  await page.addScriptTag({ path: AXE_SCRIPT });
  // Only violations are detailed: the passes of a page as long as the reference would take seconds more to describe.
  const results = await page.evaluate(() => (window as unknown as Axe).axe.run(document, { resultTypes: ['violations'] }));
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ')}`));
}

describe.runIf(runs)('accessibility of the pages people see (axe-core in chromium)', () => {
  let dataDir: string;
  beforeAll(async () => {
    // With the Brussels precompute, so the map page also offers the reference year.
    dataDir = await precomputedFixture(await mkdtemp(join(tmpdir(), 'svc-a11y-')));
    e2e = await startE2eServer({ dataDir });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await e2e?.server.map.settled();
    await e2e?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  for (const [name, path] of [['reference', '/docs'], ['errors', '/docs/errors']] as const) {
    it(`${path}: no violation`, async () => {
      const page = await openPage();
      await page.goto(`${e2e.base}${path}`);
      expect(await violations(page, name)).toEqual([]);
      await page.context().close();
    });
  }

  it('/map/ drawn with a key: no violation', async () => {
    const key = e2e.issue({ type: 'pk', label: 'a11y', products: ['map'], origins: [e2e.base] });
    const page = await openPage();
    await page.goto(`${e2e.base}/map/#key=${key}`);
    await page.waitForFunction(() => document.documentElement.dataset.state === 'idle');
    expect(await violations(page, 'map')).toEqual([]);
    // The reference year: its period switch, figure select and listed legend.
    const seq = await page.evaluate(() => Number(document.documentElement.dataset.idleSeq ?? 0));
    await page.click('#mode-choice [data-mode="annual"]');
    await page.waitForFunction((before) => Number(document.documentElement.dataset.idleSeq ?? 0) > before
      && document.documentElement.dataset.state === 'idle', seq);
    expect(await page.locator('#figure-group').isVisible()).toBe(true);
    expect(await violations(page, 'map-annual')).toEqual([]);
    await page.context().close();
  });

  it('/map/ asking for a key: no violation', async () => {
    const page = await openPage();
    await page.goto(`${e2e.base}/map/`);
    await page.waitForFunction(() => document.documentElement.dataset.state === 'error');
    expect(await violations(page, 'map-no-key')).toEqual([]);
    await page.context().close();
  });

  it('an HTML report: no violation', async () => {
    const report: ShownPage = await reportPage(e2e, e2e.issue({ label: 'a11y reports', products: ['reports'] }));
    const page = await openPage();
    // Served as downloaded, with its own CSP, but inline rather than as an attachment.
    const url = `${e2e.base}${report.path}`;
    await page.route(url, (route) => route.fulfill({
      status: 200, body: report.html,
      headers: { 'content-type': report.headers.get('content-type')!, 'content-security-policy': report.headers.get('content-security-policy')! },
    }));
    await page.goto(url);
    expect(await violations(page, 'report')).toEqual([]);
    await page.context().close();
  });
});
