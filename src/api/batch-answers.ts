/**
 * The answer of a batch in the two media types the route speaks: JSON (each location's envelope as the cached text
 * it is, or its problem document) and CSV (one row per location, src/batch/batch-table.ts). Which one is read from
 * `Accept`: `text/csv` when the client prefers it to JSON, JSON otherwise.
 */
import { BatchTable } from '../batch/batch-table.js';
import type { BatchOutcome } from '../batch/batch-service.js';
import { problemDocument, problemFromError, type Problem } from './problems.js';

/** The media type of CSV answers. */
export const CSV_TYPE = 'text/csv; charset=utf-8';

/** The preference for a media type in `Accept`: its q value, 0 when it is not admitted. */
function quality(accept: string, type: string): number {
  let best = 0;
  const [major] = type.split('/');
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';').map((s) => s.trim());
    if (range !== type && range !== `${major}/*` && range !== '*/*') continue;
    const q = params.find((p) => p.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    // An exact range outranks a wildcard at the same q.
    const score = (Number.isFinite(value) ? value : 0) + (range === type ? 0.0001 : 0);
    best = Math.max(best, score);
  }
  return best;
}

/** Whether the client asks for CSV rather than JSON. */
export function prefersCsv(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const csv = quality(accept, 'text/csv');
  return csv > 0 && csv > quality(accept, 'application/json');
}

/** Turns one location's failure into its problem document; `log` is told of faults of the service. */
export function outcomeProblem(err: unknown, docsUrl: string, requestId: string, log: (err: unknown) => void): Problem {
  const outcome = problemFromError(err);
  if (outcome.internal) log(err);
  return problemDocument(docsUrl, outcome.code, outcome.detail, requestId);
}

/** The JSON answer, assembled as text around each envelope's cached bytes. */
export function batchJson(outcomes: readonly BatchOutcome[], problem: (err: unknown) => Problem): string {
  const answered = outcomes.filter((o) => o.ok).length;
  const parts = outcomes.map((o) =>
    o.ok
      ? `{"id":${JSON.stringify(o.id)},"ok":true,"cache":"${o.cache}","result":${o.body}}`
      : `{"id":${JSON.stringify(o.id)},"ok":false,"problem":${JSON.stringify(problem(o.error))}}`,
  );
  return `{"locations":${outcomes.length},"answered":${answered},"failed":${outcomes.length - answered},"results":[${parts.join(',')}]}`;
}

/** The CSV answer: one row per location, in input order. */
export function batchCsv(outcomes: readonly BatchOutcome[], problem: (err: unknown) => Problem): string {
  const table = new BatchTable();
  for (const o of outcomes) {
    if (o.ok) table.addAnswer(o.id, JSON.parse(o.body) as unknown);
    else table.addProblem(o.id, problem(o.error));
  }
  return table.toCsv();
}
