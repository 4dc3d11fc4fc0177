/**
 * The result files of an area job. GeoJSON (RFC 7946): a FeatureCollection with one Feature per feature of the body,
 * in its order, its geometry as given (converted to WGS 84 when the body was in Lambert 72; `null` for a feature that
 * got a problem) and its properties the same flat columns as the CSV. CSV: one row per feature — `id` (the feature's
 * id; `feature-<index>` when it has none), `ok`, `error_code`, `error_detail`, then every figure of the answer as a
 * column named by its path (`area.outdoor_m2`, `statistics.air.rating`, `distribution.…`), as the batch files do.
 */
import { BatchTable, envelopeCells, type RowProblem } from '../batch/batch-table.js';
import type { DescribeFailure } from '../batch/batch-files.js';
import { lambert72ToWgs84 } from '../geo/crs.js';
import type { AreaCrs } from '../geo/geojson-polygons.js';
import type { AreaFeatureAnswer } from './area-service.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The geometries of a body's features as given, in order (a bare geometry is its own). */
function givenGeometries(body: unknown): unknown[] {
  if (!isObject(body)) return [];
  if (body.type === 'FeatureCollection') return Array.isArray(body.features) ? body.features.map((f) => (isObject(f) ? f.geometry : null)) : [];
  if (body.type === 'Feature') return [body.geometry];
  return [{ type: body.type, coordinates: body.coordinates }];
}

/** Every position of `coordinates` (nested arrays) from Lambert 72 to WGS 84. */
function toWgs84(coordinates: unknown): unknown {
  if (!Array.isArray(coordinates)) return coordinates;
  if (typeof coordinates[0] === 'number') return lambert72ToWgs84(coordinates[0], coordinates[1] as number).map((v) => Number(v.toFixed(9)));
  return coordinates.map(toWgs84);
}

/** A feature's id as a table cell. */
function rowId(f: AreaFeatureAnswer): string {
  return f.id === null ? `feature-${f.index}` : String(f.id);
}

/** The figures of an answered feature (its result without the index and id the lead columns carry). */
function figures(f: AreaFeatureAnswer): unknown {
  if ('error' in f) return undefined;
  const { index: _index, id: _id, ...rest } = f.result;
  return rest;
}

/** The GeoJSON file's text. */
export function areaGeoJson(body: unknown, crs: AreaCrs, answers: readonly AreaFeatureAnswer[], describe: DescribeFailure): string {
  const geometries = givenGeometries(body);
  const features = answers.map((f) => {
    let properties: Record<string, unknown>;
    let geometry: unknown = null;
    if ('error' in f) {
      const problem: RowProblem = describe(f.error);
      properties = { id: rowId(f), ok: false, error_code: problem.code, error_detail: problem.detail };
    } else {
      const given = geometries[f.index] as { type: string; coordinates: unknown };
      geometry = crs === 'EPSG:31370' ? { type: given.type, coordinates: toWgs84(given.coordinates) } : { type: given.type, coordinates: given.coordinates };
      properties = { id: rowId(f), ok: true, ...Object.fromEntries(envelopeCells(figures(f))) };
    }
    return JSON.stringify({ type: 'Feature', ...(f.id !== null ? { id: f.id } : {}), geometry, properties });
  });
  return `{"type":"FeatureCollection","features":[\n${features.join(',\n')}\n]}\n`;
}

/** The CSV file's text. */
export function areaCsvFile(answers: readonly AreaFeatureAnswer[], describe: DescribeFailure): string {
  const table = new BatchTable();
  for (const f of answers) {
    if ('error' in f) table.addProblem(rowId(f), describe(f.error));
    else table.addAnswer(rowId(f), figures(f));
  }
  return table.toCsv();
}
