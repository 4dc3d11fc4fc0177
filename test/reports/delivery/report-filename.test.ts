/**
 * Download names of reports and their Content-Disposition: the slug comes from the address, the ASCII name is safe on
 * every common filesystem and in a quoted header value, and a name with letters beyond ASCII travels as RFC 8187
 * `filename*`, which decodes back to the Unicode name. Properties over arbitrary addresses (fixed seed).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentDisposition } from '../../../src/api/routes/reports.js';
import { reportFilename, SLUG_MAX } from '../../../src/reports/delivery/report-filename.js';

describe('reportFilename', () => {
  it.each([
    ['Grand-Place 1, 1000 Bruxelles', 'SVC_Report_Grand-Place_1_1000_Bruxelles', 'SVC_Report_Grand-Place_1_1000_Bruxelles'],
    ["Rue de l'Étuve 46, 1000 Bruxelles", 'SVC_Report_Rue_de_l_Etuve_46_1000_Bruxelles', "SVC_Report_Rue_de_l_Étuve_46_1000_Bruxelles"],
    ['50.84675, 4.35224', 'SVC_Report_50.84675_4.35224', 'SVC_Report_50.84675_4.35224'],
    ['Sint-Baafsplein 1, 9000 Gent', 'SVC_Report_Sint-Baafsplein_1_9000_Gent', 'SVC_Report_Sint-Baafsplein_1_9000_Gent'],
    ['../../etc/passwd', 'SVC_Report_etc_passwd', 'SVC_Report_etc_passwd'],
    ['"; filename=evil.exe', 'SVC_Report_filename_evil.exe', 'SVC_Report_filename_evil.exe'],
    ['Ελληνικά 7', 'SVC_Report_7', 'SVC_Report_Ελληνικά_7'],
    ['***', 'SVC_Report_report', 'SVC_Report_report'],
    ['CON', 'SVC_Report_CON', 'SVC_Report_CON'],
  ])('%j → %s', (address, ascii, unicode) => {
    expect(reportFilename(address, 'pdf')).toEqual({ ascii: `${ascii}.pdf`, unicode: `${unicode}.pdf` });
  });

  it('cuts long addresses at a word boundary', () => {
    const name = reportFilename(`${'Avenue '.repeat(30)}1`, 'html').ascii;
    expect(name.length).toBeLessThanOrEqual('SVC_Report_'.length + SLUG_MAX + '.html'.length);
    expect(name).toMatch(/^SVC_Report_(Avenue_)*Avenue\.html$/);
  });

  it('every name is safe, whatever the address (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.constantFrom('html' as const, 'pdf' as const), (address, format) => {
        const { ascii, unicode } = reportFilename(address, format);
        expect(ascii).toMatch(new RegExp(`^SVC_Report_[A-Za-z0-9-](?:[A-Za-z0-9._-]*[A-Za-z0-9-])?\\.${format}$`));
        expect(Array.from(unicode.slice('SVC_Report_'.length)).length).toBeLessThanOrEqual(SLUG_MAX + format.length + 1);
        expect(unicode).not.toMatch(/[\u0000-\u001f\u007f-\u009f<>:"/\\|?*\s]/u);
        expect(unicode).toBe(unicode.normalize('NFC'));
        expect(unicode.startsWith('SVC_Report_') && unicode.endsWith(`.${format}`)).toBe(true);
        const header = contentDisposition({ ascii, unicode });
        expect(header).toMatch(/^[\x20-\x7e]+$/);
        const star = /filename\*=UTF-8''([^;]+)$/.exec(header);
        expect(star ? decodeURIComponent(star[1]) : ascii).toBe(unicode);
        if (star) expect(star[1]).toMatch(/^[A-Za-z0-9!#$&+.^_`|~%-]+$/);
      }),
      { numRuns: 500, seed: 611 },
    );
  });
});

describe('contentDisposition', () => {
  it('is the quoted ASCII name alone when the Unicode name is the same', () => {
    expect(contentDisposition(reportFilename('Grand-Place 1, 1000 Bruxelles', 'html'))).toBe(
      'attachment; filename="SVC_Report_Grand-Place_1_1000_Bruxelles.html"',
    );
  });

  it('adds filename* (UTF-8, percent-encoded) when they differ', () => {
    expect(contentDisposition(reportFilename("Rue de l'Étuve 46", 'pdf'))).toBe(
      "attachment; filename=\"SVC_Report_Rue_de_l_Etuve_46.pdf\"; filename*=UTF-8''SVC_Report_Rue_de_l_%C3%89tuve_46.pdf",
    );
  });
});
