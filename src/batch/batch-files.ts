/**
 * The result files of a batch job: GeoJSON (RFC 7946), a FeatureCollection with one Point per location at the
 * coordinates it was answered for (given or geocoded; `null` geometry for an address that could not be located), its
 * properties the same flat columns as the CSV; and the CSV (src/batch/batch-table.ts). Both list the locations in
 * the order given.
 */
import { BatchTable, envelopeCells, type RowProblem } from './batch-table.js';
import type { BatchOutcome } from './batch-service.js';
import type { BatchInput } from './batch-input.js';

/** Turns a location's failure into what the files say of it (code and detail, safe to show). */
export type DescribeFailure = (err: unknown) => RowProblem;

/** The coordinates a location was asked for, when it gave them. */
function givenPoint(input: BatchInput, index: number): [number, number] | null {
  const location = input.entries[index]?.location;
  return location?.lat !== undefined && location.lon !== undefined ? [location.lon, location.lat] : null;
}

/** The GeoJSON file's text. */
export function batchGeoJson(input: BatchInput, outcomes: readonly BatchOutcome[], describe: DescribeFailure): string {
  const features = outcomes.map((o, i) => {
    let point = givenPoint(input, i);
    let properties: Record<string, unknown>;
    if (o.ok) {
      const envelope = JSON.parse(o.body) as { location: { lat: number; lon: number } };
      point = [envelope.location.lon, envelope.location.lat];
      properties = { id: o.id, ok: true, ...Object.fromEntries(envelopeCells(envelope)) };
    } else {
      const problem = describe(o.error);
      properties = { id: o.id, ok: false, error_code: problem.code, error_detail: problem.detail };
    }
    return JSON.stringify({ type: 'Feature', id: o.id, geometry: point && { type: 'Point', coordinates: point }, properties });
  });
  return `{"type":"FeatureCollection","features":[\n${features.join(',\n')}\n]}\n`;
}

/** The CSV file's text. */
export function batchCsvFile(outcomes: readonly BatchOutcome[], describe: DescribeFailure): string {
  const table = new BatchTable();
  for (const o of outcomes) {
    if (o.ok) table.addAnswer(o.id, JSON.parse(o.body) as unknown);
    else table.addProblem(o.id, describe(o.error));
  }
  return table.toCsv();
}
