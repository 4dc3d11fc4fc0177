/**
 * The map page: reads the publishable key from the URL fragment (`#key=svc_pk_…`, never sent to any server), loads
 * the views and scales (public), the city and the map catalog (keyed), and shows one data layer at one timestep
 * coloured by the chosen scale, with the buildings, a legend, a time slider and the clicked cell's values. Where the
 * catalog lists annual layers, a "Reference year" period shows one annual figure of a layer instead, coloured by the
 * legend its TileJSON publishes, and a click lists every annual figure of the cell. Before the
 * catalog's signed URLs expire (or when a tile answers 401) it fetches the catalog again and swaps the tile URLs in
 * place. Failures appear in the status banner with the problem's title and detail.
 *
 * For tests and tools: `<html data-state>` is `loading`, `busy` (the map is drawing), `idle` or `error`;
 * `data-idle-seq` counts the map's idle events after a change; `window.__map` is the MapLibre map.
 */
import { absolute, cityFromFragment, getJson, keyFromFragment } from './api.js';
import { AreaTool } from './area-panel.js';
import { cellSummary, fieldInfo, figureInfo, renderCell } from './cell-panel.js';
import { renderLegend } from './legend.js';
import { ALL_DATA_LAYERS, annualLayer, DATA_LAYERS, MapView } from './map-view.js';
import { colorExpression } from './scale-style.js';
import { catalogSteps, sameStep } from './timeline.js';
import { Popup } from '%MAPLIBRE%/maplibre-gl.mjs';

/** The city shown: `#city=<id>` beside the key, default Brussels (the cities with a map: GET /v1/cities?product=map). */
const CITY = cityFromFragment(location.hash);
const LAYER_NAMES = { thermal: 'Thermal', wind: 'Wind', air: 'Air' };
/** Fetch the catalog again this long before its URLs expire. */
const REFRESH_BEFORE_MS = 120_000;
/** A tile's 401 triggers at most one catalog refresh in this time (a persisting 401 is then reported). */
const REFRESH_GAP_MS = 30_000;

const $ = (id) => document.getElementById(id);
const root = document.documentElement;
const state = {
  key: undefined, scales: new Map(), views: [], catalog: undefined, steps: [], step: 0, layer: undefined,
  viewOf: {}, scaleOf: {}, tilejson: new Map(), fields: {}, view: undefined, idleSeq: 0, applySeq: 0,
  timer: undefined, refreshing: undefined, lastRefresh: 0, popup: undefined, area: undefined,
  /** `timed` (live and forecast) or `annual` (the reference year); the figure shown per layer, and its legend. */
  mode: 'timed', figureOf: {}, legend: undefined, referenceYear: undefined,
  /** Sources to make anew on their next use: their URLs were signed again. */
  renew: new Set(),
};

// ---- status -------------------------------------------------------------------------------------------------------

function showProblem(err, prefix) {
  $('banner').hidden = false;
  $('banner').dataset.code = err.code ?? 'error';
  $('banner-title').textContent = prefix ? `${prefix}: ${err.title ?? 'Error'}` : (err.title ?? 'Error');
  $('banner-detail').textContent = err.detail ?? err.message ?? '';
}

function clearProblem() {
  $('banner').hidden = true;
}

function fail(err) {
  showProblem(err);
  root.dataset.state = 'error';
  if (err.status === 401 || err.status === 403) $('key-form').hidden = false;
}

/** Marks the map busy until its next idle event. */
function settle() {
  root.dataset.state = 'busy';
  state.view.map.once('idle', () => {
    root.dataset.idleSeq = String(++state.idleSeq);
    if (root.dataset.state === 'busy') root.dataset.state = 'idle';
  });
  state.view.map.triggerRepaint();
}

// ---- data -------------------------------------------------------------------------------------------------------

/**
 * The panel's attribution from a TileJSON: what made the data first, in bold (its `provenance` label, with which
 * the attribution starts: "Synthetic data, not a simulation or measurements of the city: …"), then the sources. The
 * city's own attribution stands until a TileJSON arrives, and wherever one carries no provenance.
 */
function showAttribution(doc) {
  const text = typeof doc?.attribution === 'string' ? doc.attribution : undefined;
  if (text === undefined) return;
  const label = doc.provenance?.label;
  const box = $('attribution');
  if (typeof label !== 'string' || label === '' || !text.startsWith(label)) {
    box.textContent = text;
    return;
  }
  const strong = document.createElement('strong');
  strong.className = 'provenance';
  strong.textContent = label;
  box.replaceChildren(strong, document.createTextNode(` ${text.slice(label.length).trim()}`));
}

/** The TileJSON behind a catalog link, fetched once per URL. */
function tilejson(link) {
  const url = absolute(link);
  let doc = state.tilejson.get(url);
  if (doc === undefined) {
    doc = getJson(url);
    doc.then(showAttribution, () => state.tilejson.delete(url));
    state.tilejson.set(url, doc);
  }
  return doc;
}

function setCatalog(catalog) {
  const keep = state.steps[state.step]?.timestamp_ms;
  state.catalog = catalog;
  state.steps = catalogSteps(catalog);
  state.step = sameStep(state.steps, keep);
  state.tilejson.clear();
  const slider = $('time-slider');
  slider.max = String(Math.max(0, state.steps.length - 1));
  slider.value = String(state.step);
  $('time-first').textContent = state.steps[0]?.label.split(' · ')[1] ?? '';
  $('time-last').textContent = state.steps.at(-1)?.label.split(' · ')[1] ?? '';
  clearTimeout(state.timer);
  const wait = Date.parse(catalog.meta.url_expires_utc) - REFRESH_BEFORE_MS - Date.now();
  state.timer = setTimeout(() => void refresh(), Math.max(10_000, wait));
}

/** Fetches the catalog again and swaps every source's URLs, keeping the view and, when listed, the instant shown. */
function refresh() {
  if (state.refreshing) return state.refreshing;
  state.lastRefresh = Date.now();
  state.refreshing = (async () => {
    try {
      setCatalog(await getJson(`/v1/map/${CITY}`, state.key));
      clearProblem();
      state.renew = new Set(['buildings', ...ALL_DATA_LAYERS]);
      await showBuildings();
      await apply();
    } catch (err) {
      showProblem(err, 'Map catalog');
    } finally {
      state.refreshing = undefined;
    }
  })();
  return state.refreshing;
}

function currentView() {
  return state.views.find((v) => v.id === state.viewOf[state.layer]);
}

function currentScale() {
  return state.scales.get(state.scaleOf[currentView().id]);
}

/** What colours the map now: the chosen scale, or the shown annual figure's legend. */
function shownScale() {
  return state.mode === 'annual' ? state.legend : currentScale();
}

async function showBuildings() {
  const link = state.catalog.static?.buildings?.tilejson;
  if (link === undefined) return;
  state.view.setBuildings(await tilejson(link), state.renew.delete('buildings'));
  state.view.setBuildingsVisible($('buildings-toggle').checked);
}

/** Shows the chosen layer, view, scale and step (or annual figure). */
async function apply() {
  const seq = ++state.applySeq;
  if (state.mode === 'annual') return applyAnnual(seq);
  const step = state.steps[state.step];
  const entry = step?.layers[state.layer];
  const scale = currentScale();
  let doc;
  try {
    doc = entry === undefined ? undefined : await tilejson(entry.tilejson);
  } catch (err) {
    if (err.code === 'url_expired' && Date.now() - state.lastRefresh > REFRESH_GAP_MS) return refresh();
    return showProblem(err, 'Tiles');
  }
  if (seq !== state.applySeq) return;
  state.fields = fieldInfo(doc?.vector_layers?.[0]);
  state.view.showData(state.layer, doc, colorExpression(scale, entry?.range), doc !== undefined && state.renew.delete(state.layer));
  renderLegend($('legend'), scale, entry?.range);
  $('time-label').textContent = step ? step.label : 'No timestep';
  $('time-label').classList.toggle('empty', entry === undefined);
  if (entry === undefined && step) $('time-label').textContent += ` — no ${LAYER_NAMES[state.layer].toLowerCase()} data`;
  state.popup?.remove();
  $('cell-panel').hidden = true;
  settle();
}

/** Shows the chosen annual figure of the chosen layer, coloured by the legend its TileJSON publishes. */
async function applyAnnual(seq) {
  const id = annualLayer(state.layer);
  const link = state.catalog.static?.[id]?.tilejson;
  let doc;
  try {
    doc = link === undefined ? undefined : await tilejson(link);
  } catch (err) {
    if (err.code === 'url_expired' && Date.now() - state.lastRefresh > REFRESH_GAP_MS) return refresh();
    return showProblem(err, 'Tiles');
  }
  if (seq !== state.applySeq) return undefined;
  const figures = doc?.figures ?? {};
  const names = Object.keys(figures);
  if (!names.includes(state.figureOf[state.layer])) state.figureOf[state.layer] = names[0];
  const figure = figures[state.figureOf[state.layer]];
  fillSelect($('figure-select'), names.map((name) => ({ value: name, label: figures[name].label })), state.figureOf[state.layer]);
  $('figure-description').textContent = figure ? figure.meaning : 'No annual figures for this layer.';
  state.fields = figureInfo(figures);
  state.legend = figure?.legend;
  state.view.showData(id, figure ? doc : undefined, figure ? colorExpression(figure.legend) : undefined, doc !== undefined && state.renew.delete(id));
  if (figure) renderLegend($('legend'), figure.legend);
  state.popup?.remove();
  $('cell-panel').hidden = true;
  settle();
  return undefined;
}

// ---- controls ---------------------------------------------------------------------------------------------------

function fillSelect(select, options, chosen) {
  select.replaceChildren(...options.map(({ value, label }) => {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = label;
    option.selected = value === chosen;
    return option;
  }));
  select.disabled = options.length < 2;
}

function syncControls() {
  const annual = state.mode === 'annual';
  for (const button of $('mode-choice').children) button.setAttribute('aria-checked', String(button.dataset.mode === state.mode));
  for (const button of $('layer-choice').children) button.setAttribute('aria-checked', String(button.dataset.layer === state.layer));
  $('view-group').hidden = annual;
  $('time-group').hidden = annual;
  $('figure-group').hidden = !annual;
  if (annual) return;
  const views = state.views.filter((v) => v.metric === state.layer);
  const view = currentView();
  fillSelect($('view-select'), views.map((v) => ({ value: v.id, label: v.name })), view.id);
  fillSelect($('scale-select'), view.scales.map((id) => ({ value: id, label: state.scales.get(id)?.name ?? id })), state.scaleOf[view.id]);
  $('view-description').textContent = view.description ?? '';
}

/** The layers the chosen period offers: timed ones with data and views, or those with an annual layer. */
function offeredLayers(mode) {
  return mode === 'annual'
    ? DATA_LAYERS.filter((layer) => state.catalog.static?.[annualLayer(layer)] !== undefined)
    : DATA_LAYERS.filter((layer) => state.steps.some((s) => s.layers[layer]) && state.views.some((v) => v.metric === layer));
}

/** The layer buttons of the chosen period (keeping the layer shown when the period offers it). */
function layerButtons() {
  const offered = offeredLayers(state.mode);
  if (!offered.includes(state.layer)) state.layer = offered[0];
  $('layer-choice').replaceChildren(...offered.map((layer) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.role = 'radio';
    button.dataset.layer = layer;
    button.textContent = LAYER_NAMES[layer];
    button.addEventListener('click', () => {
      state.layer = layer;
      syncControls();
      void apply();
    });
    return button;
  }));
}

function buildControls() {
  const timed = offeredLayers('timed');
  const annual = offeredLayers('annual');
  for (const view of state.views) state.scaleOf[view.id] = view.default_scale;
  for (const layer of timed) state.viewOf[layer] = (state.views.find((v) => v.metric === layer && v.default) ?? state.views.find((v) => v.metric === layer)).id;
  if (timed.length === 0 && annual.length > 0) state.mode = 'annual';
  layerButtons();
  $('period-group').hidden = annual.length === 0;
  $('figure-year').textContent = `Reference year ${state.referenceYear}: each cell's annual statistics, precomputed for the whole city.`;
  for (const button of $('mode-choice').children) {
    button.disabled = offeredLayers(button.dataset.mode).length === 0;
    button.addEventListener('click', () => {
      state.mode = button.dataset.mode;
      layerButtons();
      syncControls();
      void apply();
    });
  }
  $('figure-select').addEventListener('change', (e) => {
    state.figureOf[state.layer] = e.target.value;
    void apply();
  });
  $('view-select').addEventListener('change', (e) => {
    state.viewOf[state.layer] = e.target.value;
    syncControls();
    void apply();
  });
  $('scale-select').addEventListener('change', (e) => {
    state.scaleOf[currentView().id] = e.target.value;
    void apply();
  });
  $('time-slider').addEventListener('input', (e) => {
    state.step = Number(e.target.value);
    void apply();
  });
  $('buildings-toggle').addEventListener('change', (e) => {
    state.view.setBuildingsVisible(e.target.checked);
    settle();
  });
  syncControls();
  const any = timed.length + annual.length > 0;
  $('controls').hidden = !any;
  return any;
}

function onClick(e) {
  if (state.area?.active) return state.area.click(e.lngLat, e.point);
  const { data, building } = state.view.featuresAt(e.point);
  const entry = state.mode === 'annual' ? undefined : state.steps[state.step]?.layers[state.layer];
  const scale = shownScale();
  if (scale === undefined) return;
  const cell = { lngLat: e.lngLat, data, building, fields: state.fields, scale, range: entry?.range, layerName: LAYER_NAMES[state.layer].toLowerCase() };
  renderCell($('cell-body'), cell);
  $('cell-panel').hidden = false;
  $('cell-panel').scrollIntoView({ block: 'nearest' });
  const text = document.createElement('strong');
  text.textContent = cellSummary(cell);
  state.popup?.remove();
  state.popup = new Popup({ closeButton: false, offset: 8 }).setLngLat(e.lngLat).setDOMContent(text).addTo(state.view.map);
}

/** The `exp` and `sig` of a URL, as one string. */
function signature(url) {
  const query = new URL(url, location.href).searchParams;
  return `${query.get('exp')}|${query.get('sig')}`;
}

/** Whether a tile URL was signed by an older catalog than the sources now use (its answer no longer matters). */
function stale(url) {
  if (typeof url !== 'string') return false;
  const current = ['buildings', ...ALL_DATA_LAYERS.map((l) => `${l}-data`)].map((id) => state.view.map.getSource(id)?.tiles?.[0]).filter(Boolean);
  return !current.some((template) => signature(template) === signature(url));
}

/**
 * A map error: a tile's 401 means the URLs expired, so the catalog is fetched again (at most once in
 * REFRESH_GAP_MS; answers to URLs already replaced are ignored); anything else is shown with its problem.
 */
async function onMapError(e) {
  const err = e.error ?? {};
  if (err.status === 401 && (state.refreshing || stale(err.url))) return undefined;
  if (err.status === 401 && Date.now() - state.lastRefresh > REFRESH_GAP_MS) return refresh();
  let problem = {};
  try {
    if (err.body && typeof err.body.text === 'function') problem = JSON.parse(await err.body.text());
  } catch {
    problem = {};
  }
  showProblem({ code: problem.code, title: problem.title ?? (err.status ? `HTTP ${err.status}` : 'Map error'), detail: problem.detail ?? err.message ?? '' }, 'Tiles');
}

// ---- start --------------------------------------------------------------------------------------------------------

async function start() {
  $('key-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const value = $('key-input').value.trim();
    if (value === '') return;
    location.hash = `key=${encodeURIComponent(value)}`;
    location.reload();
  });
  state.key = keyFromFragment(location.hash);
  if (state.key === undefined) {
    fail({ code: 'missing_key', title: 'A publishable key is needed', detail: 'Open this page with #key=svc_pk_… after its address (npm start prints the link), or paste a key below.', status: 401 });
    return;
  }
  try {
    const [index, city] = await Promise.all([getJson('/v1/scales'), getJson(`/v1/cities/${CITY}`)]);
    const scales = await Promise.all(index.scales.map((s) => getJson(`/v1/scales/${encodeURIComponent(s.id)}`)));
    for (const scale of scales) state.scales.set(scale.id, scale);
    state.views = index.views;
    state.referenceYear = city.reference_year;
    $('city-name').textContent = city.name ?? CITY;
    $('attribution').textContent = city.attribution ?? '';
    setCatalog(await getJson(`/v1/map/${CITY}`, state.key));
    state.view = await MapView.create($('map'), city.bbox);
    window.__map = state.view.map;
    root.dataset.map = 'ready';
    state.view.setBoundary(city.boundary);
    state.view.map.on('error', (e) => void onMapError(e));
    state.view.map.on('click', onClick);
    await showBuildings();
    state.area = new AreaTool(state.view.map, state.key, { draw: $('area-draw'), finish: $('area-finish'), status: $('area-status'), body: $('area-body') });
    if (!buildControls()) {
      showProblem({ title: 'No map layer for this key', detail: 'The key holds none of the metrics thermal, wind or air.' });
      settle();
      return;
    }
    await apply();
  } catch (err) {
    fail(err);
  }
}

void start();
