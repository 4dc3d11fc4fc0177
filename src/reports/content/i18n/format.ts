/**
 * Numbers, dates and months written the way each report language writes them (Intl, full ICU as Node ships it):
 * decimal comma and a narrow space before % in French, decimal comma in Dutch, dates in the Brussels time zone.
 */
import type { ReportLang } from '../../report-types.js';

/** The Intl locale of each report language (Belgian French and Dutch; British English writes dates day first). */
export const LOCALES: Readonly<Record<ReportLang, string>> = { en: 'en-GB', fr: 'fr-BE', nl: 'nl-BE' };

/** Time zone every date in a report is shown in. */
const REPORT_TIME_ZONE = 'Europe/Brussels';

/** Locale-aware writers of one language. */
export interface Formatter {
  readonly lang: ReportLang;
  readonly locale: string;
  /** A number with exactly `decimals` decimals (grouping on). */
  num(x: number, decimals: number): string;
  /** A number with at most `decimals` decimals, trailing zeros dropped. */
  short(x: number, decimals: number): string;
  /** A percentage given in percent (12.3 → "12.3%" / "12,3 %"). */
  pct(x: number, decimals?: number): string;
  /** A number followed by a unit, joined by a no-break space ("13.8 µg/m³"). */
  unit(x: number, decimals: number, unit: string): string;
  /** An integer count with grouping. */
  int(x: number): string;
  /** An instant as a long date and time in the Brussels time zone. */
  dateTime(iso: string): string;
  /** An instant as a long date in the Brussels time zone. */
  date(iso: string): string;
  /** Month name (1–12), `short` or `long`. */
  month(month: number, style: 'short' | 'long'): string;
}

const NBSP = '\u00A0';

/** Builds the formatter of `lang`. Formatters are cheap; Intl objects are created per call site and reused. */
export function formatter(lang: ReportLang): Formatter {
  const locale = LOCALES[lang];
  const fixed = new Map<number, Intl.NumberFormat>();
  const upTo = new Map<number, Intl.NumberFormat>();
  const pcts = new Map<number, Intl.NumberFormat>();
  const cached = (map: Map<number, Intl.NumberFormat>, d: number, make: () => Intl.NumberFormat) => {
    let f = map.get(d);
    if (f === undefined) map.set(d, (f = make()));
    return f;
  };
  const num = (x: number, d: number) =>
    cached(fixed, d, () => new Intl.NumberFormat(locale, { minimumFractionDigits: d, maximumFractionDigits: d })).format(x);
  const months = {
    short: new Intl.DateTimeFormat(locale, { month: 'short', timeZone: 'UTC' }),
    long: new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' }),
  };
  const dateTime = new Intl.DateTimeFormat(locale, {
    dateStyle: 'long', timeStyle: 'short', timeZone: REPORT_TIME_ZONE,
  });
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: REPORT_TIME_ZONE });
  return {
    lang,
    locale,
    num,
    short: (x, d) => cached(upTo, d, () => new Intl.NumberFormat(locale, { maximumFractionDigits: d })).format(x),
    pct: (x, d = 1) =>
      cached(pcts, d, () =>
        new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: d, maximumFractionDigits: d })).format(x / 100),
    unit: (x, d, unit) => `${num(x, d)}${NBSP}${unit}`,
    int: (x) => num(x, 0),
    dateTime: (iso) => `${dateTime.format(new Date(iso))}`,
    date: (iso) => date.format(new Date(iso)),
    month: (m, style) => months[style].format(new Date(Date.UTC(2001, m - 1, 1))),
  };
}
