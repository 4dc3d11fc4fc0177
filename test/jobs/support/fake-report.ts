/**
 * Test doubles of the reports seam (src/reports/report-types.ts) until the report content lands: a content source that
 * records what it was asked and can be told to fail or to wait, and an in-process renderer that writes small, real
 * documents from the content (an HTML page naming the address, a one-page PDF) and can also be held or failed.
 * Delivery (jobs, files, routes) is tested over them; the real content and renderers are tested by their own suite.
 */
import type { ApiKeyRecord } from '../../../src/keys/key-types.js';
import type { ReportContent, ReportContentSource, ReportRenderer, ReportRequest } from '../../../src/reports/report-types.js';

/** A gate: `wait()` blocks until `open()`. */
export class Gate {
  #open!: () => void;
  readonly #opened = new Promise<void>((resolve) => (this.#open = resolve));
  /** Resolves once the gate is opened. */
  wait(): Promise<void> {
    return this.#opened;
  }
  open(): void {
    this.#open();
  }
}

/** Content source double: content is the request plus the metrics the key holds, at a given time. */
export class FakeContentSource implements ReportContentSource {
  readonly calls: { request: ReportRequest; keyId: number }[] = [];
  /** Errors thrown by the next calls, in order (then calls succeed). */
  readonly failures: unknown[] = [];
  /** When set, every call waits for it (or for its abort signal). */
  gate: Gate | undefined;
  generatedUtc = '2025-03-10T12:00:30.000Z';

  async gather(request: ReportRequest, key: ApiKeyRecord, signal?: AbortSignal): Promise<ReportContent> {
    this.calls.push({ request, keyId: key.id });
    if (this.gate) {
      await Promise.race([
        this.gate.wait(),
        new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true })),
      ]);
    }
    const failure = this.failures.shift();
    if (failure !== undefined) throw failure;
    return { version: 1, request, generatedUtc: this.generatedUtc, metrics: [...key.metrics] };
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The HTML the doubles write: a whole page naming the address and language. */
export function fakeHtml(content: ReportContent): string {
  const { address, lang } = content.request;
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Report</title></head><body><h1>${escapeHtml(address)}</h1></body></html>\n`;
}

/** A minimal, well-formed one-page A4 PDF naming the address (ASCII only). */
export function fakePdf(content: ReportContent): Uint8Array {
  const text = content.request.address.replace(/[^\x20-\x7e]/g, '?').replace(/[()\\]/g, '');
  const stream = `BT /F1 12 Tf 72 770 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595.28 841.89] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

/** In-process renderer double; `pdfGate` holds PDF renders, `pdfFailures` fails the next ones. */
export class FakeRenderer implements ReportRenderer {
  htmlCalls = 0;
  pdfCalls = 0;
  readonly htmlFailures: unknown[] = [];
  readonly pdfFailures: unknown[] = [];
  pdfGate: Gate | undefined;

  async html(content: ReportContent): Promise<Uint8Array> {
    this.htmlCalls++;
    const failure = this.htmlFailures.shift();
    if (failure !== undefined) throw failure;
    return new TextEncoder().encode(fakeHtml(content));
  }

  async pdf(content: ReportContent): Promise<Uint8Array> {
    this.pdfCalls++;
    await this.pdfGate?.wait();
    const failure = this.pdfFailures.shift();
    if (failure !== undefined) throw failure;
    return fakePdf(content);
  }
}
