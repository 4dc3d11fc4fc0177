/**
 * HTML building blocks of the documentation pages: escaping, prose with `code` spans, and JSON examples highlighted on
 * the server (no script runs in the pages), long arrays shortened for reading.
 */

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** One line or paragraph of prose: escaped, with `backtick` spans as code. */
export function inline(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/**
 * A block of code that may scroll (long lines, long examples): focusable (`tabindex="0"`) so that a keyboard can scroll
 * it, and a named region so that a screen reader says what it holds when it gets focus. `label` must be unique on the
 * page (two landmarks of one role and name cannot be told apart); `codeHtml` is already HTML.
 */
export function codeBlock(label: string, codeHtml: string, cls = ''): string {
  return `<pre${cls ? ` class="${cls}"` : ''} tabindex="0" role="region" aria-label="${escapeHtml(label)}"><code>${codeHtml}</code></pre>`;
}

/** Prose as paragraphs (blank lines separate them). */
export function prose(text: string | undefined): string {
  if (text === undefined || text.trim() === '') return '';
  return text
    .split(/\n\s*\n/)
    .map((p) => `<p>${inline(p.trim())}</p>`)
    .join('');
}

/** Arrays longer than this are shown with their first items and a note of how many follow. */
const SHOWN_ITEMS = 3;

function span(cls: string, text: string): string {
  return `<span class="j-${cls}">${escapeHtml(text)}</span>`;
}

function scalar(value: unknown): string {
  if (value === null) return span('null', 'null');
  if (typeof value === 'string') return span('str', JSON.stringify(value));
  if (typeof value === 'number') return span('num', JSON.stringify(value));
  if (typeof value === 'boolean') return span('bool', String(value));
  return span('str', JSON.stringify(value) ?? 'null');
}

function isFlat(value: unknown): boolean {
  return value === null || typeof value !== 'object' || (Array.isArray(value) ? value.every((v) => v === null || typeof v !== 'object') : false);
}

function render(value: unknown, indent: string): string {
  if (value === null || typeof value !== 'object') return scalar(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    // Short arrays of scalars (coordinates, bounding boxes, lists of ids) stay on one line.
    if (isFlat(value) && value.length <= 12) return `[${value.map(scalar).join(', ')}]`;
    const shown = value.length > SHOWN_ITEMS + 1 ? value.slice(0, SHOWN_ITEMS) : value;
    const lines = shown.map((v) => `${inner}${render(v, inner)}`);
    if (shown.length < value.length) lines.push(`${inner}${span('note', `… ${value.length - shown.length} more`)}`);
    return `[\n${lines.join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  const lines = entries.map(([k, v]) => `${inner}${span('key', JSON.stringify(k))}: ${render(v, inner)}`);
  return `{\n${lines.join(',\n')}\n${indent}}`;
}

/** A JSON value as highlighted, indented HTML (for a `<pre>`); arrays beyond a few items are shortened. */
export function jsonHtml(value: unknown): string {
  return render(value, '');
}
