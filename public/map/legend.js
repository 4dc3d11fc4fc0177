/**
 * The legend of the chosen scale, built from the scale the service publishes: a swatch list for class scales and for
 * gradients of a few labelled flat bands (the annual figures' ratings and shares), a colour bar for the others (many
 * flat bands, or stops interpolated across the hour's range on a relative scale), each colour a `.swatch` element
 * carrying its colour in `data-color`, and the no-data colour last.
 */
import { effectiveRange, legendEntries } from './scale-style.js';

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function swatch(color) {
  const node = el('span', 'swatch');
  node.dataset.color = color;
  node.style.backgroundColor = color;
  return node;
}

/** Gradients with at most this many flat bands are listed band by band, with their labels. */
const MAX_LISTED_BANDS = 12;

const fmt = (v) => (Math.round(v * 10) / 10).toString();

/** The gradient's bar and its end labels. */
function gradientBar(scale, range) {
  const wrap = el('div', 'legend-gradient');
  const bar = el('div', 'legend-bar');
  if (scale.interpolate) {
    // One continuous bar, and the stops it interpolates between as marks beneath it.
    bar.classList.add('interpolated');
    bar.style.backgroundImage = `linear-gradient(to right, ${scale.classes.map((c) => `${c.color} ${c.bounds.from * 100}%`).join(', ')})`;
    const marks = el('div', 'legend-stops');
    for (const c of scale.classes) marks.append(swatch(c.color));
    wrap.append(bar, marks);
  } else {
    for (const c of scale.classes) bar.append(swatch(c.color));
    wrap.append(bar);
  }
  const ticks = el('div', 'legend-ticks');
  const r = effectiveRange(scale, range);
  const unit = scale.unit ? ` ${scale.unit}` : '';
  if (r) {
    ticks.append(el('span', '', `${fmt(r.min)}${unit}`), el('span', '', `${fmt((r.min + r.max) / 2)}${unit}`), el('span', '', `${fmt(r.max)}${unit}`));
  } else {
    // Flat bands: the first lower bound, the middle, and the top of the last band (its width again when open-ended).
    const first = scale.classes[0].bounds.from;
    const n = scale.classes.length;
    const last = scale.classes[n - 1].bounds;
    const top = last.to ?? (n > 1 ? 2 * last.from - scale.classes[n - 2].bounds.from : last.from);
    ticks.append(el('span', '', fmt(first)), el('span', '', fmt((first + top) / 2)), el('span', '', `${last.to === null ? '≥ ' : ''}${fmt(top)}${unit}`));
  }
  wrap.append(ticks);
  if (scale.relative) {
    wrap.append(el('p', 'legend-note', range ? "Relative to this hour's range across the city." : 'Fallback range: no range published for this hour.'));
  }
  return wrap;
}

/** Fills `container` with the legend of `scale` (`range`: the hour's published range, for relative scales). */
export function renderLegend(container, scale, range) {
  container.replaceChildren();
  container.dataset.scale = scale.id;
  const head = el('div', 'legend-head');
  head.append(el('span', 'legend-name', scale.name));
  if (scale.unit) head.append(el('span', 'legend-unit', scale.unit));
  container.append(head);
  if (scale.kind === 'gradient' && (scale.interpolate || scale.classes.length > MAX_LISTED_BANDS)) {
    container.append(gradientBar(scale, range));
  } else {
    const list = el('ul', 'legend-list');
    for (const entry of legendEntries(scale).filter((e) => !e.noData)) {
      const item = el('li');
      if (entry.explain) item.title = entry.explain;
      item.append(swatch(entry.color), el('span', 'legend-label', entry.label));
      list.append(item);
    }
    container.append(list);
  }
  const none = legendEntries(scale).find((e) => e.noData);
  const noData = el('div', 'legend-nodata');
  noData.append(swatch(none.color), el('span', 'legend-label', none.label));
  container.append(noData);
  if (scale.authority) container.append(el('p', 'legend-source', `Scale: ${scale.authority}`));
}
