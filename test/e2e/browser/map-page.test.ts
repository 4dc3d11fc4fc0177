/**
 * The map page in a real browser (Debian chromium through playwright-core, WebGL through SwiftShader) against the real
 * service on the test fixture: the page loads MapLibre and its worker from the service under its CSP, draws tiles, and
 * its pixels change when the layer, the view or scale, or the time step changes; the legend's colours are those of
 * `GET /v1/scales/{scale}`; a click shows the cell's values; a tile answering 401 makes the page fetch the catalog
 * again and carry on; a missing or invalid key shows the problem in the banner. Every wait is for an event of the page
 * (`data-state`, `data-idle-seq`), never a sleep. Skipped, saying so, only when chromium is absent and `CI` is unset
 * (scripts/system-deps.sh installs it).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VectorTileSource } from 'maplibre-gl';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precomputedFixture } from '../../helpers/fixtures.js';
import { startE2eServer, type E2eServer } from '../support/e2e-server.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic'];
const runs = existsSync(CHROMIUM) || process.env.CI !== undefined;
if (!runs) console.warn(`map page browser test skipped: ${CHROMIUM} is absent (install chromium; CI always runs it)`);
/** Set to a directory to keep the screenshots the test takes (for looking at them). */
const SHOTS = process.env.SVC_TEST_SCREENSHOTS;

let e2e: E2eServer;
let browser: Browser;
let key: string;

/** Opens the page with `fragment` at a viewport size; collects CSP violations and page errors. */
async function open(fragment: string, width = 1280, height = 800): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width, height } });
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__csp = [...(window.__csp ?? []), `${e.violatedDirective} ${e.blockedURI}`];
    });
  });
  await page.goto(`${e2e.base}/map/${fragment}`);
  await page.waitForFunction(() => ['idle', 'error'].includes(document.documentElement.dataset.state ?? ''));
  return { page, problems };
}

/** The map's idle count now. */
const idleSeq = (page: Page) => page.evaluate(() => Number(document.documentElement.dataset.idleSeq ?? 0));

/** Runs `change` and waits until the map has been idle again after it. */
async function after(page: Page, change: () => Promise<unknown>): Promise<void> {
  const seq = await idleSeq(page);
  await change();
  await page.waitForFunction((before) => Number(document.documentElement.dataset.idleSeq ?? 0) > before
    && document.documentElement.dataset.state === 'idle', seq);
}

/** A screenshot of the map alone (kept under SVC_TEST_SCREENSHOTS when set). */
async function mapShot(page: Page, name: string): Promise<Buffer> {
  const shot = await page.locator('#map').screenshot();
  if (SHOTS) {
    await mkdir(SHOTS, { recursive: true });
    await writeFile(join(SHOTS, `${name}.png`), shot);
    await page.screenshot({ path: join(SHOTS, `${name}-page.png`), fullPage: true });
  }
  return shot;
}

/** The page coordinates of the centre of a drawn cell of map layer `layer` (to click it). */
function drawnCell(page: Page, layer: string): Promise<{ x: number; y: number }> {
  return page.evaluate((id) => {
    const map = window.__map;
    const feature = map.queryRenderedFeatures({ layers: [id] })[0];
    const ring = feature.geometry.type === 'Polygon' ? feature.geometry.coordinates[0] : feature.geometry.coordinates[0][0];
    const lon = ring.slice(0, -1).reduce((a: number, p: number[]) => a + p[0], 0) / (ring.length - 1);
    const lat = ring.slice(0, -1).reduce((a: number, p: number[]) => a + p[1], 0) / (ring.length - 1);
    const { x, y } = map.project([lon, lat]);
    const box = map.getCanvas().getBoundingClientRect();
    return { x: box.left + x, y: box.top + y };
  }, layer);
}

/** Colours of the legend's swatches, in order. */
const legendColors = (page: Page) => page.$$eval('#legend .swatch', (els) => els.map((el) => (el as HTMLElement).dataset.color));

/** The colours `GET /v1/scales/{id}` publishes, in legend order (classes, then no data). */
async function scaleColors(id: string): Promise<string[]> {
  const scale = (await e2e.get(`/v1/scales/${id}`)).json;
  return [...scale.classes.map((c: { color: string }) => c.color), scale.no_data_color];
}

describe.runIf(runs)('the map page in a browser', () => {
  let dataDir: string;
  beforeAll(async () => {
    // The fixture with the Brussels precompute beside it, so the page also offers the reference year.
    dataDir = await precomputedFixture(await mkdtemp(join(tmpdir(), 'svc-map-page-')));
    e2e = await startE2eServer({ dataDir });
    key = e2e.issue({ type: 'pk', label: 'map page', products: ['map'], origins: [e2e.base] });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await e2e?.server.map.settled();
    await e2e?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('draws the map, and its pixels follow the layer, the view, the scale and the time step', async () => {
    const { page, problems } = await open(`#key=${key}`);
    expect(await page.evaluate(() => document.documentElement.dataset.state)).toBe('idle');
    expect(await page.locator('#banner').isHidden()).toBe(true);
    // MapLibre runs, with its worker, under the page's CSP: nothing blocked, nothing failed.
    expect(await page.evaluate(() => window.__csp ?? [])).toEqual([]);
    expect(problems).toEqual([]);
    expect(await page.evaluate(() => window.__map.getLayer('thermal-cells') !== undefined)).toBe(true);
    expect(await page.evaluate(() => window.__map.queryRenderedFeatures({ layers: ['thermal-cells'] }).length)).toBeGreaterThan(0);
    expect(await legendColors(page)).toEqual(await scaleColors('thermal-utci'));
    const thermal = await mapShot(page, 'thermal-stress');

    // (b) view: thermal stress classes → relative UTCI temperature.
    await after(page, () => page.selectOption('#view-select', 'temperature'));
    expect(await legendColors(page)).toEqual(await scaleColors('thermal-utci-relative'));
    const relative = await mapShot(page, 'thermal-relative');
    expect(relative.equals(thermal)).toBe(false);

    // (a) layer: thermal → wind.
    await after(page, () => page.click('#layer-choice [data-layer="wind"]'));
    expect(await legendColors(page)).toEqual(await scaleColors('wind-nen8100'));
    const wind = await mapShot(page, 'wind-comfort');
    expect(wind.equals(relative)).toBe(false);

    // (b) scale: the same view with the colour-vision-safe scale.
    await after(page, () => page.selectOption('#scale-select', 'wind-cvd'));
    expect(await legendColors(page)).toEqual(await scaleColors('wind-cvd'));
    expect((await mapShot(page, 'wind-cvd')).equals(wind)).toBe(false);

    // (c) time: the mean wind speed at the live hour and 12 hours later.
    await after(page, () => page.selectOption('#view-select', 'mean'));
    const live = await mapShot(page, 'wind-mean-live');
    expect(await page.textContent('#time-label')).toMatch(/live$/);
    await after(page, () => page.locator('#time-slider').fill('12'));
    expect(await page.textContent('#time-label')).toMatch(/\+12 h$/);
    expect((await mapShot(page, 'wind-mean-12h')).equals(live)).toBe(false);

    // Air, BelAQI index: its legend too comes from the service.
    await after(page, () => page.click('#layer-choice [data-layer="air"]'));
    expect(await legendColors(page)).toEqual(await scaleColors('air-belaqi'));
    await mapShot(page, 'air-index');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('draws an area and shows its budget, class shares and the request that produced them', async () => {
    const areaKey = e2e.issue({ type: 'pk', label: 'map page area', products: ['map', 'historical'], origins: [e2e.base] });
    const { page, problems } = await open(`#key=${areaKey}`);
    await page.click('#area-draw');
    // Corners around Grand-Place, inside the fixture's grid.
    const at = (lon: number, lat: number) => page.evaluate(([x, y]) => {
      const map = (window as any).__map;
      const p = map.project([x, y]);
      const box = map.getCanvas().getBoundingClientRect();
      return { x: box.left + p.x, y: box.top + p.y };
    }, [lon, lat]);
    for (const [lon, lat] of [[4.3505, 50.8458], [4.3535, 50.8458], [4.3535, 50.8474], [4.3505, 50.8474]]) {
      const p = await at(lon!, lat!);
      await page.mouse.click(p.x, p.y);
    }
    await page.click('#area-finish');
    await page.waitForSelector('#area-panel[data-state="answered"]');
    expect(await page.textContent('#area-body caption')).toMatch(/^Area budget · brussels_extended, 20 m cells$/);
    expect(await page.locator('#area-body .area-classes').count()).toBe(3);
    expect(await page.textContent('#area-body code')).toContain('/historical/area');
    expect(await page.evaluate(() => (window as any).__map.querySourceFeatures('area-drawing').some((f: any) => f.geometry.type === 'Polygon'))).toBe(true);
    await mapShot(page, 'area');
    if (SHOTS) await page.locator('#area-panel').screenshot({ path: join(SHOTS, 'area-panel.png') });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the reference year: annual layers, a figure switcher, the published legend, and a cell\'s annual figures', async () => {
    const { page, problems } = await open(`#key=${key}`);
    expect(await page.locator('#period-group').isVisible()).toBe(true);
    const timed = await mapShot(page, 'timed-before-annual');
    const catalog = (await e2e.get('/v1/map/brussels', e2e.issue())).json;
    /** The colours an annual figure's TileJSON publishes, in legend order (classes, then no data). */
    const published = async (layer: string, figure: string) => {
      const doc = (await e2e.get(new URL(catalog.static[layer].tilejson, e2e.base).pathname + new URL(catalog.static[layer].tilejson, e2e.base).search)).json;
      const legend = doc.figures[figure].legend;
      return [...legend.classes.map((c: { color: string }) => c.color), legend.no_data_color];
    };

    await after(page, () => page.click('#mode-choice [data-mode="annual"]'));
    expect(await page.locator('#figure-group').isVisible()).toBe(true);
    expect(await page.locator('#time-group').isHidden()).toBe(true);
    expect(await page.locator('#view-group').isHidden()).toBe(true);
    expect(await page.evaluate(() => window.__map.queryRenderedFeatures({ layers: ['annual_thermal-cells'] }).length)).toBeGreaterThan(0);
    expect(await page.inputValue('#figure-select')).toBe('rating');
    expect(await legendColors(page)).toEqual(await published('annual_thermal', 'rating'));
    const rating = await mapShot(page, 'annual-thermal-rating');
    expect(rating.equals(timed)).toBe(false);

    // Figure: the thermal rating → the annual maximum UTCI, coloured by the UTCI stress scale.
    await after(page, () => page.selectOption('#figure-select', 'max_utci_c'));
    expect(await legendColors(page)).toEqual(await published('annual_thermal', 'max_utci_c'));
    expect(await legendColors(page)).toEqual(await scaleColors('thermal-utci'));
    const maxUtci = await mapShot(page, 'annual-thermal-max-utci');
    expect(maxUtci.equals(rating)).toBe(false);

    // Layer: air, annual mean NO2 (the NO2 concentration scale).
    await after(page, () => page.click('#layer-choice [data-layer="air"]'));
    await after(page, () => page.selectOption('#figure-select', 'annual_mean_ugm3_no2'));
    expect(await legendColors(page)).toEqual(await published('annual_air', 'annual_mean_ugm3_no2'));
    const no2 = await mapShot(page, 'annual-air-no2');
    expect(no2.equals(maxUtci)).toBe(false);

    // A click lists the cell's annual figures, with units, and the request for its full statistics.
    const point = await drawnCell(page, 'annual_air-cells');
    await page.mouse.click(point.x, point.y);
    await page.locator('#cell-panel').waitFor({ state: 'visible' });
    const values = await page.textContent('#cell-body .cell-values');
    expect(values).toMatch(/Air rating\d+(\.\d)? out of 10/);
    expect(values).toMatch(/Annual mean NO2\d+(\.\d)? µg\/m³/);
    // A coded figure shows its class name, without the unit `code`.
    expect(values).toMatch(/Limiting pollutant(NO2|PM2\.5|PM10)/);
    expect(values).not.toMatch(/code/);
    expect(await page.getAttribute('#cell-body a.cell-link', 'href')).toMatch(/^\/v1\/historical\/stats\?lat=50\.\d{5}&lon=4\.\d{5}$/);

    // Back to live and forecast: the timed layer and its controls return.
    await after(page, () => page.click('#mode-choice [data-mode="timed"]'));
    expect(await page.locator('#time-group').isVisible()).toBe(true);
    expect(await page.evaluate(() => window.__map.getLayoutProperty('annual_air-cells', 'visibility'))).toBe('none');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the clicked cell\'s values with units and the class label of the scale', async () => {
    const { page } = await open(`#key=${key}`);
    // A point of the map where a thermal cell is drawn.
    const point = await drawnCell(page, 'thermal-cells');
    await page.mouse.click(point.x, point.y);
    await page.locator('#cell-panel').waitFor({ state: 'visible' });
    const labels = (await e2e.get('/v1/scales/thermal-utci')).json.classes.map((c: { label: string }) => c.label);
    const shown = await page.textContent('#cell-body .cell-class-label');
    expect(labels).toContain(shown);
    expect(await page.textContent('#cell-body .cell-values')).toMatch(/Temperature UTCI-?\d+(\.\d)? °C/);
    expect(await page.textContent('#cell-body .cell-command')).toMatch(/\/v1\/historical\/stats\?lat=50\.\d{5}&lon=4\.\d{5}/);
    expect(await page.getAttribute('#cell-body a.cell-link', 'href')).toMatch(/^\/v1\/historical\/stats\?lat=50\.\d{5}&lon=4\.\d{5}$/);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'click.png') });
    await page.close();
  });

  it('fetches the catalog again when a tile answers 401 and swaps the URLs in place', async () => {
    const { page } = await open(`#key=${key}`);
    const before = await page.evaluate(() => window.__map.getSource<VectorTileSource>('thermal-data')!.tiles[0]!);
    const center = await page.evaluate(() => window.__map.getCenter().toArray());
    // Spoil the signature of the shown tiles: every tile answers 401 url_expired.
    await after(page, () => page.evaluate(() => {
      const source = window.__map.getSource<VectorTileSource>('thermal-data')!;
      source.setTiles([source.tiles[0]!.replace(/sig=[^&]+/, 'sig=1.AAAA')]);
    }));
    await page.waitForFunction((good) => window.__map.getSource<VectorTileSource>('thermal-data')!.tiles[0] === good
      && document.documentElement.dataset.state === 'idle', before);
    expect(await page.locator('#banner').isHidden()).toBe(true);
    expect(await page.evaluate(() => window.__map.getCenter().toArray())).toEqual(center);
    await page.close();
  });

  it('fetches the catalog again shortly before its URLs expire, keeping the view', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.clock.install();
    await page.goto(`${e2e.base}/map/#key=${key}`);
    await page.waitForFunction(() => document.documentElement.dataset.state === 'idle');
    const center = await page.evaluate(() => window.__map.getCenter().toArray());
    const expires = Date.parse((await e2e.get('/v1/map/brussels', key)).json.meta.url_expires_utc);
    const now = await page.evaluate(() => Date.now());
    const catalog = page.waitForRequest((req) => new URL(req.url()).pathname === '/v1/map/brussels');
    await after(page, () => page.clock.fastForward(expires - now - 60_000));
    await catalog;
    expect(await page.locator('#banner').isHidden()).toBe(true);
    expect(await page.evaluate(() => window.__map.getCenter().toArray())).toEqual(center);
    await page.close();
  });

  it('says what made the data in the attribution, first and in bold, in view without scrolling the panel', async () => {
    const { page, problems } = await open(`#key=${key}`);
    const attribution = page.locator('#attribution');
    const text = await attribution.textContent();
    expect(text).toMatch(/^Synthetic data, not a simulation or measurements of the city: svc-api stand-in city model \(version \d+, seed 7\)\. Street-level model © svc-api; /);
    expect(await attribution.locator('strong').textContent()).toMatch(/^Synthetic data, .*\(version \d+, seed 7\)\.$/);
    // The panel is taller than the window; its attribution stays on screen, at its foot.
    expect(await page.evaluate(() => { const p = document.querySelector('.panel')!; return p.scrollHeight > p.clientHeight; })).toBe(true);
    const box = (await attribution.boundingBox())!;
    expect(box.y).toBeGreaterThan(600);
    expect(box.y + box.height).toBeLessThanOrEqual(800);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the problem of an invalid key, and asks for a key when there is none', async () => {
    const bad = 'svc_pk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    const expected = (await e2e.get('/v1/map/brussels', bad)).json;
    const { page } = await open(`#key=${bad}`);
    expect(await page.evaluate(() => document.documentElement.dataset.state)).toBe('error');
    expect(await page.locator('#banner').isVisible()).toBe(true);
    expect(await page.textContent('#banner-title')).toBe(expected.title);
    expect(await page.textContent('#banner-detail')).toBe(expected.detail);
    expect(await page.locator('#key-form').isVisible()).toBe(true);
    await page.close();

    const none = await open('', 390, 844);
    expect(await none.page.textContent('#banner-title')).toBe('A publishable key is needed');
    expect(await none.page.locator('#key-form').isVisible()).toBe(true);
    await none.page.close();
  });

  it('fits a phone-width screen: the map above the panel, nothing wider than the screen', async () => {
    const { page } = await open(`#key=${key}`, 390, 844);
    expect(await page.evaluate(() => document.documentElement.dataset.state)).toBe('idle');
    const map = (await page.locator('#map').boundingBox())!;
    const panel = (await page.locator('.panel').boundingBox())!;
    expect(map.width).toBeLessThanOrEqual(390);
    expect(panel.y).toBeGreaterThanOrEqual(map.y + map.height - 1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await mapShot(page, 'phone');
    await page.close();
  });
});
