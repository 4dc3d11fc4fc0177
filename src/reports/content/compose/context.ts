/** What every section composer reads: the content, the language's texts and its number and date writers. */
import type { ReportContentV1 } from '../content-model.js';
import { formatter, type Formatter } from '../i18n/format.js';
import { MESSAGES, POLLUTANT_SYMBOLS, type Messages } from '../i18n/index.js';

/** The composing context of one report. */
export interface ComposeContext {
  readonly c: ReportContentV1;
  readonly t: Messages;
  readonly f: Formatter;
}

/** Page geometry shared by composers and renderers, points (A4 with 48 pt side margins). */
export const LAYOUT = Object.freeze({
  pageWidth: 595.28,
  pageHeight: 841.89,
  margin: 48,
  /** Text width: page width minus both margins. */
  contentWidth: 499.28,
  /** Width of a figure in a row of two. */
  half: 240,
  /** Width of a figure in a row of three. */
  third: 158,
});

/** The context of `content`, in its request's language. */
export function composeContext(c: ReportContentV1): ComposeContext {
  return { c, t: MESSAGES[c.request.lang], f: formatter(c.request.lang) };
}

/** A pollutant as printed (NO₂, PM₂.₅, PM₁₀). */
export function pollutantSymbol(p: keyof typeof POLLUTANT_SYMBOLS): string {
  return POLLUTANT_SYMBOLS[p];
}

/** A distance in metres as printed: metres below 1 km ("310 m"), else kilometres ("55 km", "2.5 km"). */
export function distance(f: ComposeContext['f'], metres: number): string {
  return metres < 1000 ? `${f.short(metres, 1)}\u00A0m` : `${f.short(metres / 1000, 1)}\u00A0km`;
}

/** A nullable number written by `write`, or an en dash for null. */
export function orDash(value: number | null | undefined, write: (v: number) => string): string {
  return value === null || value === undefined ? '–' : write(value);
}
