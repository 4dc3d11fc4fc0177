/**
 * The Area tool of the map page: draw a polygon (click its corners, click the first corner or "Finish" to close),
 * ask `POST /v1/historical/area` for it with the page's key, and show the area budget, the class shares (BelAQI
 * class of the annual means, wind comfort class, UTCI stress of the hottest hour) and the request that produced
 * them, as a command to run with one's own key. The polygon is drawn on the map as a GeoJSON source of its own.
 */
import { ApiError } from './api.js';

const SOURCE = 'area-drawing';
/** Class figures shown, in order, with their headings. */
const CLASS_FIGURES = [
  ['air.belaqi_class', 'BelAQI class of the annual means'],
  ['wind.comfort_class', 'Wind comfort class'],
  ['thermal.utci_stress_of_max', 'UTCI stress of the hottest hour'],
];
const BUDGET = [
  ['polygon_m2', 'Polygon'], ['outdoor_m2', 'Outdoor'], ['buildings_m2', 'Buildings'], ['no_data_m2', 'No data'], ['outside_coverage_m2', 'Outside the model'],
];

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const m2 = (v) => (v >= 10_000 ? `${(v / 10_000).toFixed(2)} ha` : `${Math.round(v)} m²`);

/** POSTs `body` as JSON with the key; the parsed answer, or an ApiError with the problem's fields. */
async function postJson(path, body, key) {
  let res;
  try {
    res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(0, 'network', 'The service cannot be reached', String(err.message ?? err));
  }
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(res.status, json.code ?? `http_${res.status}`, json.title ?? `HTTP ${res.status}`, json.detail ?? '');
  return json;
}

/** The request as a command (the key stays a shell variable: it cannot travel in a page). */
export function areaCommand(path, body) {
  return `curl -s -X POST "$BASE_URL${path.replace(/^\/v1/, '')}" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' -d '${JSON.stringify(body)}'`;
}

/** Fills `body` with one feature's answer (its budget and class shares) or its problem. */
export function renderArea(body, feature, command) {
  body.replaceChildren();
  if (feature.problem) {
    body.append(el('p', 'area-problem', `${feature.problem.title}: ${feature.problem.detail}`));
  } else {
    const table = el('table', 'area-budget');
    table.append(el('caption', '', `Area budget · ${feature.area.dataset}, ${feature.area.resolution_m} m cells`));
    for (const [key, label] of BUDGET) {
      const row = el('tr');
      row.append(el('th', '', label), el('td', '', m2(feature.area[key])));
      table.append(row);
    }
    body.append(table);
    const figures = feature.distribution?.figures ?? {};
    if (!feature.distribution?.available) body.append(el('p', 'hint', `No class shares: ${feature.distribution?.reason ?? 'no precompute'}.`));
    for (const [field, heading] of CLASS_FIGURES) {
      const classes = figures[field];
      if (!classes) continue;
      const list = el('dl', 'area-classes');
      list.setAttribute('aria-label', heading);
      for (const c of classes.classes.filter((c) => c.area_m2 > 0)) {
        const bar = el('span', 'area-bar');
        // The bar's track is half the value cell, so the figures beside it never wrap under it.
        bar.style.width = `${Math.max(1, c.share_pct) / 2}%`;
        const value = el('dd', '', `${c.share_pct} % · ${m2(c.area_m2)}`);
        value.prepend(bar);
        list.append(el('dt', '', c.name), value);
      }
      body.append(el('h3', '', heading), list);
    }
  }
  const request = el('details', 'area-request');
  request.append(el('summary', '', 'Request'), el('code', '', command));
  body.append(request);
}

/** The drawing tool over `map`; `onChange(active)` is told when drawing starts or stops. */
export class AreaTool {
  #map;
  #key;
  #ui;
  #corners = [];
  active = false;

  constructor(map, key, ui) {
    this.#map = map;
    this.#key = key;
    this.#ui = ui;
    map.addSource(SOURCE, { type: 'geojson', data: this.#geojson() });
    map.addLayer({ id: 'area-fill', type: 'fill', source: SOURCE, filter: ['==', '$type', 'Polygon'], paint: { 'fill-color': '#1d4ed8', 'fill-opacity': 0.15 } });
    map.addLayer({ id: 'area-line', type: 'line', source: SOURCE, paint: { 'line-color': '#1d4ed8', 'line-width': 2 } });
    map.addLayer({ id: 'area-corners', type: 'circle', source: SOURCE, filter: ['==', '$type', 'Point'], paint: { 'circle-radius': 4, 'circle-color': '#1d4ed8' } });
    ui.draw.addEventListener('click', () => this.start());
    ui.finish.addEventListener('click', () => void this.finish());
  }

  /** Starts a new polygon. */
  start() {
    this.#corners = [];
    this.active = true;
    this.#ui.finish.disabled = true;
    this.#ui.status.textContent = 'Click the corners of the area on the map; click the first corner or Finish to close it.';
    this.#redraw();
  }

  /** Adds a corner at a map click (closing the polygon when the first corner is clicked again). */
  click(lngLat, point) {
    if (!this.active) return;
    const first = this.#corners[0];
    if (first && this.#corners.length >= 3) {
      const p = this.#map.project(first);
      if (Math.hypot(p.x - point.x, p.y - point.y) < 8) return void this.finish();
    }
    this.#corners.push([Number(lngLat.lng.toFixed(6)), Number(lngLat.lat.toFixed(6))]);
    this.#ui.finish.disabled = this.#corners.length < 3;
    this.#redraw();
  }

  /** Closes the polygon and asks for its statistics. */
  async finish() {
    if (this.#corners.length < 3) return;
    this.active = false;
    this.#ui.finish.disabled = true;
    const ring = [...this.#corners, this.#corners[0]];
    this.#redraw(ring);
    const body = { type: 'Feature', id: 'drawn', geometry: { type: 'Polygon', coordinates: [ring] } };
    const path = '/v1/historical/area';
    this.#ui.status.textContent = 'Computing…';
    try {
      const answer = await postJson(path, body, this.#key);
      this.#ui.status.textContent = '';
      renderArea(this.#ui.body, answer.features[0], areaCommand(path, body));
    } catch (err) {
      this.#ui.status.textContent = '';
      renderArea(this.#ui.body, { problem: { title: err.title ?? 'Error', detail: err.detail ?? String(err.message) } }, areaCommand(path, body));
    }
    this.#ui.body.closest('section').dataset.state = 'answered';
  }

  #geojson(ring) {
    const features = this.#corners.map((c) => ({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: c } }));
    if (ring) features.push({ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } });
    else if (this.#corners.length >= 2) features.push({ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: this.#corners } });
    return { type: 'FeatureCollection', features };
  }

  #redraw(ring) {
    this.#map.getSource(SOURCE)?.setData(this.#geojson(ring));
  }
}
