/** Types of fake-documents.mjs: the documents the report test doubles write. */
import type { ReportContent } from '../../../src/reports/report-types.js';

/** The HTML the doubles write: a whole page naming the address and language. */
export function fakeHtml(content: ReportContent): string;
/** A minimal, well-formed one-page A4 PDF naming the address (ASCII only). */
export function fakePdf(content: ReportContent): Uint8Array;
