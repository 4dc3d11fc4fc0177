/**
 * The PDF report: the same document as the HTML, on A4 pages (595.28 × 841.89 pt) with a masthead, one page per
 * metric section, a running footer with page numbers, document metadata in the report's language, and DejaVu Sans
 * embedded (subset), so every text is real, extractable text. A pure function of the content, safe in a worker.
 */
import PDFDocument from 'pdfkit';
import { LAYOUT } from '../../content/compose/context.js';
import { composeReport } from '../../content/compose/index.js';
import type { ReportDocument } from '../../content/document.js';
import { LOCALES } from '../../content/i18n/format.js';
import type { ReportContent } from '../../report-types.js';
import { THEME } from '../../content/theme.js';
import { pdfFonts, PDF_FONTS } from './fonts.js';
import { PAGE, PdfWriter, TYPE } from './pdf-writer.js';

/** Draws the masthead at the top of the first page. */
function masthead(w: PdfWriter, doc: ReportDocument): void {
  const locale = LOCALES[doc.lang];
  w.y += w.style(8.5, false, THEME.accent).write(doc.subtitle.toLocaleUpperCase(locale), PAGE.x, w.y, PAGE.width) + 2;
  w.y += w.style(19, true).write(doc.title, PAGE.x, w.y, PAGE.width) + 3;
  w.y += w.style(12, true).write(doc.address, PAGE.x, w.y, PAGE.width) + 2;
  w.y += w.style(8.5, false, THEME.muted).write(doc.generated, PAGE.x, w.y, PAGE.width) + 6;
  w.doc.rect(PAGE.x, w.y, PAGE.width, 2).fill(THEME.accent);
  w.y += 6;
}

/** Writes the running footer (text and "page n of m") on every page. */
function footers(w: PdfWriter, doc: ReportDocument): void {
  const range = w.doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    w.doc.switchToPage(range.start + i);
    // The footer sits in the bottom margin: lift the margin so PDFKit does not start a new page for it.
    const margins = w.doc.page.margins;
    w.doc.page.margins = { ...margins, bottom: 0 };
    const y = LAYOUT.pageHeight - PAGE.bottom + 24;
    w.doc.moveTo(PAGE.x, y - 5).lineTo(PAGE.x + PAGE.width, y - 5).lineWidth(0.5).strokeColor(THEME.rule).stroke();
    w.style(TYPE.small, false, THEME.faint);
    const pageText = doc.page(i + 1, range.count);
    const pageW = w.doc.widthOfString(pageText);
    w.doc.text(`${doc.footer} · ${doc.address}`, PAGE.x, y, { width: PAGE.width - pageW - 16, lineBreak: false, ellipsis: true });
    w.doc.text(pageText, PAGE.x + PAGE.width - pageW, y, { lineBreak: false });
    w.doc.page.margins = margins;
  }
}

/** Lays out a composed document; resolves with the PDF bytes and the SVG warnings met while drawing. */
export async function documentPdf(doc: ReportDocument, createdUtc: string): Promise<{ pdf: Uint8Array; warnings: string[] }> {
  const fonts = pdfFonts();
  const pdf = new PDFDocument({
    size: [LAYOUT.pageWidth, LAYOUT.pageHeight],
    margins: { top: PAGE.top, bottom: PAGE.bottom, left: PAGE.x, right: PAGE.x },
    bufferPages: true,
    autoFirstPage: true,
    lang: LOCALES[doc.lang],
    displayTitle: true,
    info: {
      Title: `${doc.title} – ${doc.address}`,
      Subject: doc.subtitle,
      Author: 'svc-api',
      Creator: 'svc-api reports',
      CreationDate: new Date(createdUtc),
    },
  });
  // PDFKit 0.20 takes a parsed fontkit font where its types say bytes.
  pdf.registerFont(PDF_FONTS.regular, fonts.regular as unknown as Buffer);
  pdf.registerFont(PDF_FONTS.bold, fonts.bold as unknown as Buffer);
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', resolve);
    pdf.on('error', reject);
  });

  const w = new PdfWriter(pdf);
  masthead(w, doc);
  for (const section of doc.sections) {
    if (section.newPage) w.newPage();
    w.heading(section.title, w.keepHeight(section.blocks));
    for (const block of section.blocks) w.block(block);
  }
  footers(w, doc);
  pdf.end();
  await done;
  const bytes = Buffer.concat(chunks);
  return { pdf: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), warnings: w.warnings };
}

/** The A4 PDF report of `content`. */
export async function renderReportPdf(content: ReportContent): Promise<Uint8Array> {
  return (await documentPdf(composeReport(content), String(content.generatedUtc))).pdf;
}
