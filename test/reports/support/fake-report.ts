/**
 * Test doubles of the reports seam (src/reports/report-types.ts) until the report content lands: a content source that
 * records what it was asked and can be told to fail or to wait, and an in-process renderer that writes small, real
 * documents from the content (an HTML page naming the address, a one-page PDF) and can also be held or failed.
 * Delivery (jobs, files, routes) is tested over them; the real content and renderers are tested by their own suite.
 */
import type { Entitlement } from '../../../src/keys/entitlement.js';
import type { ReportContent, ReportContentSource, ReportRenderer, ReportRequest } from '../../../src/reports/report-types.js';
import { fakeHtml, fakePdf } from './fake-documents.mjs';

/** The documents the doubles write, for tests that compare against them. */
export { fakeHtml, fakePdf };

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

/** Content source double: content is the request plus the metrics its scope holds, at a given time. */
export class FakeContentSource implements ReportContentSource {
  readonly calls: { request: ReportRequest; keyId: number; scope: Entitlement }[] = [];
  /** Errors thrown by the next calls, in order (then calls succeed). */
  readonly failures: unknown[] = [];
  /** When set, every call waits for it (or for its abort signal). */
  gate: Gate | undefined;
  generatedUtc = '2025-03-10T12:00:30.000Z';

  async gather(request: ReportRequest, scope: Entitlement, signal?: AbortSignal): Promise<ReportContent> {
    this.calls.push({ request, keyId: request.keyId, scope });
    if (this.gate) {
      await Promise.race([
        this.gate.wait(),
        new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true })),
      ]);
    }
    const failure = this.failures.shift();
    if (failure !== undefined) throw failure;
    return { version: 1, request, generatedUtc: this.generatedUtc, metrics: [...scope.metrics] };
  }
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
