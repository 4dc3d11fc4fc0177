/**
 * The panel of a clicked cell: the class the chosen scale gives it, each field of the layer with its label and unit
 * (read from the TileJSON's field descriptions, "Label (unit): meaning"), the building there if any, and how to ask
 * for the point's annual statistics. The key cannot travel in a link, so the panel gives the request as a command
 * to run with one's own key rather than a link.
 */
import { classify } from './scale-style.js';

/**
 * Label and unit of each field, from a TileJSON vector layer's `fields` ("Label (unit): meaning"); the units the
 * contract spells for machines (`degrees C`, `µg/m3`) are shown as people write them.
 */
export function fieldInfo(vectorLayer) {
  const info = {};
  for (const [field, text] of Object.entries(vectorLayer?.fields ?? {})) {
    const m = /^(.*?) \(([^)]*)\)(?::\s*(.*))?$/.exec(String(text));
    info[field] = m ? { label: m[1], unit: m[2].replace(/^degrees C$/, '°C').replace(/^µg\/m3$/, 'µg/m³'), meaning: m[3] ?? '' } : { label: field, unit: '', meaning: String(text) };
  }
  return info;
}

/**
 * Label, unit and meaning of each annual figure, from an annual layer's TileJSON `figures`; a coded figure (its legend
 * has numbered classes and no unit, e.g. the limiting pollutant, unit `code`) also maps its codes to their labels.
 */
export function figureInfo(figures) {
  const info = {};
  for (const [name, figure] of Object.entries(figures ?? {})) {
    const numbered = figure.legend?.kind === 'classes' && figure.legend.classes.every((c) => c.value !== undefined);
    const codes = numbered && !figure.legend.unit ? Object.fromEntries(figure.legend.classes.map((c) => [c.value, c.label])) : undefined;
    info[name] = { label: figure.label, unit: figure.unit, meaning: figure.meaning, ...(codes ? { codes } : {}) };
  }
  return info;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The statistics request for a point (coordinates rounded to 5 decimals, as the service rounds them). */
export function statsPath(lngLat) {
  return `/v1/historical/stats?lat=${lngLat.lat.toFixed(5)}&lon=${lngLat.lng.toFixed(5)}`;
}

/**
 * Fills `body` for a click at `lngLat`: `data` and `building` are the properties found there (either may be
 * undefined), `fields` the layer's field info, `scale` and `range` what colours the map. Returns the class shown.
 */
export function renderCell(body, { lngLat, data, building, fields, scale, range, layerName }) {
  body.replaceChildren();
  const cls = data === undefined ? undefined : classify(scale, data, range);
  const head = el('div', 'cell-class');
  if (cls) {
    const sw = el('span', 'swatch');
    sw.dataset.color = cls.color;
    sw.style.backgroundColor = cls.color;
    head.append(sw, el('span', 'cell-class-label', cls.label));
  } else {
    head.append(el('span', 'cell-class-label', building ? 'Building' : `No ${layerName} data here`));
  }
  body.append(head);

  const table = el('dl', 'cell-values');
  if (data) {
    for (const [field, info] of Object.entries(fields)) {
      if (data[field] === undefined) continue;
      const dt = el('dt', '', info.label);
      if (info.meaning) dt.title = info.meaning;
      const named = info.codes?.[data[field]];
      table.append(dt, el('dd', '', named ?? `${data[field]} ${info.unit}`.trim()));
    }
  }
  if (building?.Height !== undefined) table.append(el('dt', '', 'Building height'), el('dd', '', `${building.Height} m`));
  table.append(el('dt', '', 'Position'), el('dd', '', `${lngLat.lat.toFixed(5)}, ${lngLat.lng.toFixed(5)}`));
  body.append(table);

  const stats = el('div', 'cell-stats');
  const link = el('a', 'cell-link', `GET ${statsPath(lngLat)}`);
  link.href = statsPath(lngLat);
  link.target = '_blank';
  link.rel = 'noopener';
  const title = el('p', 'hint', 'Annual statistics at this point: ');
  title.append(link);
  stats.append(title);
  stats.append(el('p', 'hint', 'It needs a key with product historical, sent in the Authorization header (a key never goes in a link):'));
  const cmd = el('code', 'cell-command', `curl -H "Authorization: Bearer $KEY" "${location.origin}${statsPath(lngLat)}"`);
  cmd.tabIndex = 0;
  stats.append(cmd);
  body.append(stats);
  return cls;
}

/** A one-line summary for the map's popup: the class and the scale's fields with their units. */
export function cellSummary({ data, building, fields, scale, range }) {
  if (data === undefined) return building ? `Building${building.Height !== undefined ? `, ${building.Height} m` : ''}` : 'No data here';
  const cls = classify(scale, data, range);
  const values = scale.fields.filter((f) => data[f] !== undefined && fields[f]?.codes === undefined).map((f) => `${data[f]} ${fields[f]?.unit ?? ''}`.trim());
  return values.length === 0 ? cls.label : `${cls.label} · ${values.join(', ')}`;
}
