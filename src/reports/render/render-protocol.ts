/**
 * The one protocol both sides of the report-rendering thread boundary import (render-pool.ts on the main thread,
 * workers/report-worker.ts in the threads). A task carries the stored content and the format; the reply carries the
 * document's bytes, or the error as data, rebuilt on the main thread (errors never cross the boundary as exceptions).
 */
import { errorToData, type SerializedError } from '../../errors.js';
import type { ReportContent } from '../report-types.js';

/** Render one report in one format. */
export interface RenderTask {
  readonly format: 'html' | 'pdf';
  readonly content: ReportContent;
}

/** A thread's reply: the document, or the error as data. */
export type RenderReply = { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false; readonly error: SerializedError };

/** The renderers a thread runs: pure functions of the content (the report content module provides them). */
export interface ReportRenderFunctions {
  /** The self-contained HTML document (text, or its UTF-8 bytes). */
  html(content: ReportContent): Uint8Array | string | Promise<Uint8Array | string>;
  /** The A4 PDF document. */
  pdf(content: ReportContent): Uint8Array | Promise<Uint8Array>;
}

const utf8 = new TextEncoder();

/** The task handler of a rendering thread over `renderers`; every failure becomes a reply, never an exception. */
export function renderTaskHandler(renderers: ReportRenderFunctions): (task: RenderTask) => Promise<RenderReply> {
  return async (task) => {
    try {
      const out = task.format === 'html' ? await renderers.html(task.content) : await renderers.pdf(task.content);
      const bytes = typeof out === 'string' ? utf8.encode(out) : out;
      if (!(bytes instanceof Uint8Array) || bytes.byteLength === 0) throw new Error(`The ${task.format} renderer returned no document.`);
      return { ok: true, bytes };
    } catch (err) {
      return { ok: false, error: errorToData(err) };
    }
  };
}
