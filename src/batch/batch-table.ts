/**
 * One flat row per location, for CSV answers and job files: the location's id, whether it was answered, its
 * problem's code and detail when not, and every figure of its envelope as a column named by its path
 * (`air.rating`, `wind.exceedance_pct.danger`, `air.monthly_good_pct.7`); lists are joined with `;`. The columns are
 * those of every answered row together, in the order they first appear (air before wind before thermal, as the
 * envelope orders its blocks), so a CSV holds every figure a JSON answer holds.
 */
import { csvLine } from './csv-write.js';

/** A cell value. */
export type Cell = string | number | boolean | null;

/** What a row says about a location that was not answered. */
export interface RowProblem {
  readonly code: string;
  readonly detail: string;
}

/** The leading columns of every batch table. */
export const LEAD_COLUMNS = ['id', 'ok', 'error_code', 'error_detail'] as const;

/** Adds every scalar leaf of `value` under `prefix` to `into`. */
function flatten(value: unknown, prefix: string, into: Map<string, Cell>): void {
  if (value === null || typeof value !== 'object') {
    into.set(prefix, value as Cell);
    return;
  }
  if (Array.isArray(value)) {
    into.set(prefix, value.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v))).join(';'));
    return;
  }
  for (const [name, inner] of Object.entries(value)) flatten(inner, prefix === '' ? name : `${prefix}.${name}`, into);
}

/** The figures of one envelope, by column. */
export function envelopeCells(envelope: unknown): Map<string, Cell> {
  const cells = new Map<string, Cell>();
  flatten(envelope, '', cells);
  return cells;
}

/** Builds a table row by row and writes it as CSV. */
export class BatchTable {
  readonly #columns = new Map<string, true>();
  readonly #rows: { id: string; problem?: RowProblem; cells?: Map<string, Cell> }[] = [];

  /** An answered location with its envelope (parsed JSON). */
  addAnswer(id: string, envelope: unknown): void {
    const cells = envelopeCells(envelope);
    for (const name of cells.keys()) this.#columns.set(name, true);
    this.#rows.push({ id, cells });
  }

  /** A location that got a problem instead. */
  addProblem(id: string, problem: RowProblem): void {
    this.#rows.push({ id, problem });
  }

  /** The whole table as CSV text, header first. */
  toCsv(): string {
    const columns = [...this.#columns.keys()];
    let out = csvLine([...LEAD_COLUMNS, ...columns]);
    for (const row of this.#rows) {
      const lead = [row.id, row.problem === undefined, row.problem?.code ?? null, row.problem?.detail ?? null];
      out += csvLine([...lead, ...columns.map((c) => row.cells?.get(c) ?? null)]);
    }
    return out;
  }
}
