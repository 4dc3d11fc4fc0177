import { describe, expect, it } from 'vitest';
import { BELAQI_LABELS } from '../../../src/classification/belaqi.js';
import { UTCI_LABELS } from '../../../src/classification/utci.js';
import { WIND_CLASS_LABELS } from '../../../src/classification/wind.js';
import { formatter } from '../../../src/reports/content/i18n/format.js';
import { MESSAGES, type Messages } from '../../../src/reports/content/i18n/index.js';
import { REPORT_LANGS } from '../../../src/reports/report-types.js';

/** IRCEL-CELINE's official BelAQI class labels, class 1 to 10. */
const OFFICIAL_BELAQI = {
  en: ['Excellent', 'Very good', 'Good', 'Fairly good', 'Moderate', 'Poor', 'Very poor', 'Bad', 'Very bad', 'Horrible'],
  fr: ['Excellent', 'Très bon', 'Bon', 'Assez bon', 'Moyen', 'Médiocre', 'Très médiocre', 'Mauvais', 'Très mauvais', 'Exécrable'],
  nl: ['Uitstekend', 'Zeer goed', 'Goed', 'Vrij goed', 'Middelmatig', 'Ondermaats', 'Vrij slecht', 'Slecht', 'Zeer slecht', 'Uitermate slecht'],
};

/** Every leaf of a message table with its path (functions are called with placeholder arguments). */
function leaves(value: unknown, path = ''): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (typeof value === 'function') return [[path, String((value as (...a: string[]) => string)('A', 'B', 'C'))]];
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, `${path}[${i}]`));
  return Object.entries(value as object).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
}

describe('report texts', () => {
  it('use IRCEL-CELINE’s official BelAQI labels in each language', () => {
    for (const lang of REPORT_LANGS) expect(MESSAGES[lang].belaqiLabels).toEqual(OFFICIAL_BELAQI[lang]);
    expect(MESSAGES.en.belaqiLabels).toEqual([...BELAQI_LABELS]);
  });

  it('translate every class of the statistics: wind and UTCI classes, score labels, seasons', () => {
    expect(MESSAGES.en.windClasses).toEqual([...WIND_CLASS_LABELS]);
    expect(MESSAGES.en.utciClasses).toEqual([...UTCI_LABELS]);
    for (const lang of ['fr', 'nl'] as const) {
      const t: Messages = MESSAGES[lang];
      expect(t.windClasses).toHaveLength(5);
      expect(t.utciClasses).toHaveLength(10);
      expect(new Set(t.windClasses).size).toBe(5);
      expect(new Set(t.utciClasses).size).toBe(10);
      expect(Object.keys(t.scoreLabels)).toEqual(Object.keys(MESSAGES.en.scoreLabels));
    }
  });

  it('have the same entries in every language, none empty, and French and Dutch differ from English', () => {
    const en = new Map(leaves(MESSAGES.en));
    for (const lang of ['fr', 'nl'] as const) {
      const other = new Map(leaves(MESSAGES[lang]));
      expect([...other.keys()]).toEqual([...en.keys()]);
      for (const [path, text] of other) expect(text.trim(), `${lang} ${path}`).not.toBe('');
      // "Score A / 10, B" reads the same in all three languages.
      const same = [...other]
        .filter(([path, text]) => text === en.get(path) && text.length > 12 && path !== 'summary.scoreLine').map(([p]) => p);
      expect(same, `${lang} entries left in English`).toEqual([]);
    }
  });
});

describe('locale formats', () => {
  it('write decimal commas in French and Dutch, a point in English', () => {
    expect(formatter('en').num(1234.56, 1)).toBe('1,234.6');
    expect(formatter('fr').num(1234.56, 1)).toBe('1\u202F234,6');
    expect(formatter('nl').num(1234.56, 1)).toBe('1.234,6');
    expect(formatter('fr').num(50.8466, 5)).toBe('50,84660');
    expect(formatter('nl').unit(2.657, 2, 'm/s')).toBe('2,66\u00A0m/s');
  });

  it('write percentages given in percent the way each language does', () => {
    expect(formatter('en').pct(12.34)).toBe('12.3%');
    expect(formatter('fr').pct(12.34)).toMatch(/^12,3[\u00A0\u202F]%$/);
    expect(formatter('nl').pct(12.34)).toBe('12,3%');
    expect(formatter('en').pct(0.05, 2)).toBe('0.05%');
  });

  it('write months and dates in the Brussels time zone', () => {
    expect(formatter('fr').month(6, 'long')).toBe('juin');
    expect(formatter('nl').month(3, 'long')).toBe('maart');
    expect(formatter('en').month(9, 'short')).toBe('Sept');
    // 23:30 UTC on 31 March is 01:30 on 1 April in Brussels (summer time).
    expect(formatter('nl').date('2026-03-31T23:30:00Z')).toBe('1 april 2026');
    expect(formatter('fr').dateTime('2026-03-10T12:00:30Z')).toBe('10 mars 2026 à 13:00');
  });
});
