/**
 * What made a dataset, as its group attributes record it (docs/datasets.md, "Provenance"): the model that wrote it
 * (`model`, `model_kind`, `model_version`, `model_seed`, and CF's free-text `source`) and the GeoTIFF imports that
 * replaced parts of it since (`imports`). The atlas files and the map's attribution take their provenance from here,
 * never from what the service assumes, so a dataset written by another model, or one whose every array was imported,
 * is not labelled a stand-in; one that records nothing says so.
 */
import type { Fail } from './spec-check.js';

/** `model_kind` of the data the seeded stand-in generator writes (src/model/generate.ts). */
export const STAND_IN_KIND = 'stand-in';

/** One `svc data import-geotiff` that replaced an array, in whole or in part. */
export interface DatasetImport {
  /** The array replaced (`no2`, `outdoor`, …). */
  readonly array: string;
  /** What the imported data are: the `--source` text, else the GeoTIFF's file name. */
  readonly source: string;
  /** When it was imported, ISO 8601 UTC. */
  readonly imported_utc: string;
  /** True when the GeoTIFF covered the whole grid, so none of the array's former values remain. */
  readonly whole_grid: boolean;
}

/** The provenance attributes a dataset may carry; each is optional (datasets written elsewhere may lack them). */
export interface ProvenanceAttrs {
  /** Name of the model that made the data. */
  readonly model?: string;
  /** What kind of model: `stand-in` for synthetic data; anything else is the writer's word (`simulation`, …). */
  readonly model_kind?: string;
  readonly model_version?: string;
  /** Seed of a seeded generator. */
  readonly model_seed?: number;
  /** CF `source`: the method of production, in words. */
  readonly source?: string;
  readonly imports?: readonly DatasetImport[];
}

/** A dataset's provenance as the exported files and the map publish it. */
export interface DatasetProvenance {
  readonly model: string | null;
  readonly model_kind: string | null;
  readonly model_version: string | null;
  readonly seed: number | null;
  readonly source: string | null;
  readonly imports: readonly DatasetImport[];
  /** True while some of the data are the stand-in's synthetic values (not every array replaced by a whole-grid import). */
  readonly stand_in: boolean;
  readonly content_version: string;
  readonly generated_utc: string;
  /** One sentence a person reads beside the data. */
  readonly label: string;
}

/** The attributes `provenanceOf` reads, besides the provenance ones. */
interface ProvenanceInput extends ProvenanceAttrs {
  readonly content_version: string;
  readonly generated_utc: string;
  readonly attribution: string;
  readonly fields: readonly string[];
}

const STATIC_NAMES = ['outdoor', 'building_height'];

/** The optional provenance attributes of raw group attributes, checked (a present key of the wrong type fails). */
export function checkProvenanceAttrs(obj: Record<string, unknown>, fail: Fail, where: string): ProvenanceAttrs {
  const out: Record<string, unknown> = {};
  for (const key of ['model', 'model_kind', 'model_version', 'source'] as const) {
    if (obj[key] === undefined) continue;
    if (typeof obj[key] !== 'string') throw fail(`${where}: '${key}' must be a string.`);
    out[key] = obj[key];
  }
  if (obj.model_seed !== undefined) {
    if (!Number.isSafeInteger(obj.model_seed)) throw fail(`${where}: 'model_seed' must be an integer.`);
    out.model_seed = obj.model_seed;
  }
  if (obj.imports !== undefined) {
    const ok = Array.isArray(obj.imports) && obj.imports.every((i: Record<string, unknown>) =>
      typeof i === 'object' && i !== null && typeof i.array === 'string' && typeof i.source === 'string' &&
      typeof i.imported_utc === 'string' && typeof i.whole_grid === 'boolean');
    if (!ok) throw fail(`${where}: 'imports' must be a list of {array, source, imported_utc, whole_grid}.`);
    out.imports = (obj.imports as DatasetImport[]).map((i) => ({
      array: i.array, source: i.source, imported_utc: i.imported_utc, whole_grid: i.whole_grid,
    }));
  }
  return out as ProvenanceAttrs;
}

/** "no2 (whole grid, from 'x')": what the imports replaced, in words. */
function importsText(imports: readonly DatasetImport[]): string {
  return imports.map((i) => `${i.array} (${i.whole_grid ? 'whole grid' : 'part of the grid'}, from '${i.source}')`).join(', ');
}

/** "svc-api stand-in city model (version 4, seed 42)". */
function modelText(a: ProvenanceAttrs): string {
  const details = [
    a.model_version === undefined ? undefined : `version ${a.model_version}`,
    a.model_seed === undefined ? undefined : `seed ${a.model_seed}`,
  ].filter((d) => d !== undefined);
  return `${a.model ?? a.source}${details.length === 0 ? '' : ` (${details.join(', ')})`}`;
}

/** The sentence of `provenanceOf`. */
function labelOf(a: ProvenanceInput, standIn: boolean, imports: readonly DatasetImport[]): string {
  const imported = imports.length === 0 ? '' : `; imported since: ${importsText(imports)}`;
  if (a.model === undefined && a.source === undefined) {
    return `${a.attribution} (no model, version or seed recorded in the dataset${imported})`;
  }
  if (standIn) return `Synthetic data, not a simulation or measurements of the city: ${modelText(a)}${imported}.`;
  if (a.model_kind === STAND_IN_KIND) return `Imported data: ${importsText(imports)}; grid laid out by ${modelText(a)}.`;
  return `Model: ${modelText(a)}${a.model_kind === undefined ? '' : `, ${a.model_kind}`}${imported}.`;
}

/** The provenance of a dataset from its group attributes. */
export function provenanceOf(attrs: ProvenanceInput): DatasetProvenance {
  const imports = attrs.imports ?? [];
  const arrays = [...attrs.fields, ...STATIC_NAMES];
  const replaced = arrays.every((name) => imports.some((i) => i.array === name && i.whole_grid));
  const standIn = attrs.model_kind === STAND_IN_KIND && !replaced;
  return {
    model: attrs.model ?? null,
    model_kind: attrs.model_kind ?? null,
    model_version: attrs.model_version ?? null,
    seed: attrs.model_seed ?? null,
    source: attrs.source ?? null,
    imports,
    stand_in: standIn,
    content_version: attrs.content_version,
    generated_utc: attrs.generated_utc,
    label: labelOf(attrs, standIn, imports),
  };
}
