/**
 * Small helpers for hand-written SVG figures: escaping, compact numbers, text. A figure is SVG markup with its size in
 * points; the HTML renderer inlines it and the PDF renderer draws it with svg-to-pdfkit, so both show the same drawing
 * with real, selectable text.
 */
import { FONT_FAMILY } from '../theme.js';

/** An SVG figure: markup and its intrinsic size in points (1 SVG unit = 1 pt). */
export interface Svg {
  readonly markup: string;
  readonly width: number;
  readonly height: number;
}

/** Escapes text for SVG/HTML content and attribute values. */
export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** A coordinate or length with at most 2 decimals and no float noise. */
export function n(x: number): string {
  return String(Math.round(x * 100) / 100);
}

/** Options of `text`. */
export interface TextOptions {
  readonly size?: number;
  readonly anchor?: 'start' | 'middle' | 'end';
  readonly weight?: 'normal' | 'bold';
  readonly fill?: string;
  /** Rotation in degrees around the anchor point. */
  readonly rotate?: number;
}

/** A `<text>` element at (x, y) (baseline). */
export function text(x: number, y: number, content: string, o: TextOptions = {}): string {
  const attrs = [
    `x="${n(x)}"`, `y="${n(y)}"`, `font-size="${n(o.size ?? 7)}"`,
    o.anchor && o.anchor !== 'start' ? `text-anchor="${o.anchor}"` : '',
    o.weight === 'bold' ? 'font-weight="bold"' : '',
    o.fill ? `fill="${o.fill}"` : '',
    o.rotate ? `transform="rotate(${n(o.rotate)} ${n(x)} ${n(y)})"` : '',
  ].filter(Boolean);
  return `<text ${attrs.join(' ')}>${esc(content)}</text>`;
}

/** A filled (and optionally stroked) rectangle. */
export function rect(x: number, y: number, w: number, h: number, fill: string, stroke?: string, strokeWidth = 0.5): string {
  const s = stroke ? ` stroke="${stroke}" stroke-width="${n(strokeWidth)}"` : '';
  return `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" fill="${fill}"${s}/>`;
}

/** A straight line. */
export function line(x1: number, y1: number, x2: number, y2: number, stroke: string, width = 0.5, dash?: string): string {
  return `<line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}" stroke="${stroke}" stroke-width="${n(width)}"${
    dash ? ` stroke-dasharray="${dash}"` : ''}/>`;
}

/**
 * Wraps a figure body into an `<svg>` element of `width` × `height` points. No namespace attribute: inline SVG in HTML
 * needs none, and the report must not contain any URL (svg-to-pdfkit does not need it either).
 */
export function svgDocument(width: number, height: number, body: string, label: string): Svg {
  const markup =
    `<svg viewBox="0 0 ${n(width)} ${n(height)}" width="${n(width)}" height="${n(height)}" ` +
    `font-family="${esc(FONT_FAMILY)}" role="img" aria-label="${esc(label)}">${body}</svg>`;
  return { markup, width, height };
}
