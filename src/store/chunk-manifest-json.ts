/**
 * The JSON chunk manifest, the form of `.zmanifest` before the binary chunk index (chunk-index-format.ts): one JSON
 * document with a line per chunk. Stores that have one are still read — parsed whole into a map, which is fine for
 * the neighbourhood-sized stores written that way — and their first rewrite (an import, aggregates, `svc data verify
 * --write-manifest`) writes the binary index. `manifestText` stays to write such stores in tests.
 */
import { DamagedDataError } from '../errors.js';
import { AGGREGATE_LEVELS, type AggregateSection } from './aggregate-files.js';
import type { ChunkManifest, ChunkRecord, ManifestEntry } from './chunk-manifest.js';

/** Version of the manifest format: 1 without stored aggregates, 2 with them; readers refuse other versions. */
const MANIFEST_FORMAT = 1;
/** The format of a manifest that lists stored aggregates (older readers refuse it rather than misread the store). */
const MANIFEST_FORMAT_AGGREGATES = 2;

/** A JSON manifest, parsed. */
export class JsonManifest implements ChunkManifest {
  readonly contentVersion: string;
  readonly aggregates?: AggregateSection;
  /** Stored size and CRC-32 by store key (aggregate files included). */
  readonly chunks: ReadonlyMap<string, ChunkRecord>;

  constructor(contentVersion: string, chunks: ReadonlyMap<string, ChunkRecord>, aggregates?: AggregateSection) {
    this.contentVersion = contentVersion;
    this.chunks = chunks;
    if (aggregates) this.aggregates = aggregates;
  }

  get size(): number {
    return this.chunks.size;
  }

  entry(key: string): ChunkRecord | undefined {
    return this.chunks.get(key);
  }

  *entries(): Generator<ManifestEntry> {
    for (const [key, { size, crc32 }] of this.chunks) yield [key, size, crc32];
  }
}

/**
 * The manifest's JSON text: one chunk per line, keys sorted, so stores of the same data have the same manifest. With
 * `aggregates`, the section that describes them (and format 2); their files are among `entries`.
 */
export function manifestText(contentVersion: string, entries: Iterable<ManifestEntry>, aggregates?: AggregateSection): string {
  const sorted = [...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const lines = sorted.map(([key, size, crc]) => `    ${JSON.stringify(key)}: [${size}, ${crc}]`);
  const format = aggregates ? MANIFEST_FORMAT_AGGREGATES : MANIFEST_FORMAT;
  const section = aggregates ? `  "aggregates": ${JSON.stringify(aggregates)},\n` : '';
  return `{\n  "manifest_format": ${format},\n  "checksum": "crc32",\n`
    + `  "content_version": ${JSON.stringify(contentVersion)},\n${section}  "chunks": {\n${lines.join(',\n')}\n  }\n}\n`;
}

/** A valid aggregates section, or undefined. */
export function parseAggregateSection(value: unknown): AggregateSection | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { format, generation, levels, records } = value as Record<string, unknown>;
  const known = AGGREGATE_LEVELS as readonly number[];
  if (format !== 1 || typeof generation !== 'string' || !/^[a-z0-9-]{1,40}$/.test(generation) || typeof records !== 'string') return undefined;
  if (!Array.isArray(levels) || levels.length === 0 || levels.some((l) => !known.includes(l as number))) return undefined;
  const sorted = [...new Set(levels as number[])].sort((a, b) => a - b);
  return { format: 1, generation, levels: sorted, records };
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** Parses manifest text; anything malformed is a `DamagedDataError` of `dataset`. */
export function parseJsonManifest(text: string, dataset: string, path: string): JsonManifest {
  const bad = (why: string, cause?: unknown) =>
    new DamagedDataError(`Dataset '${dataset}' is damaged: its chunk manifest (.zmanifest) ${why}.`, { dataset, path, cause });
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(text) as Record<string, unknown>;
  } catch (cause) {
    throw bad('is not valid JSON', cause);
  }
  if (typeof doc !== 'object' || doc === null) throw bad('is not a JSON object');
  const format = doc.manifest_format;
  if ((format !== MANIFEST_FORMAT && format !== MANIFEST_FORMAT_AGGREGATES) || doc.checksum !== 'crc32') {
    throw bad(`has an unknown format (manifest_format ${String(doc.manifest_format)}, checksum ${String(doc.checksum)})`);
  }
  const aggregates = format === MANIFEST_FORMAT_AGGREGATES ? parseAggregateSection(doc.aggregates) : undefined;
  if (format === MANIFEST_FORMAT_AGGREGATES && !aggregates) throw bad('has an invalid aggregates section');
  if (typeof doc.content_version !== 'string' || typeof doc.chunks !== 'object' || doc.chunks === null) {
    throw bad('lacks content_version or chunks');
  }
  const chunks = new Map<string, ChunkRecord>();
  for (const [key, value] of Object.entries(doc.chunks as Record<string, unknown>)) {
    const [size, crc] = Array.isArray(value) ? value : [];
    if (!Array.isArray(value) || value.length !== 2 || !isCount(size) || !isCount(crc) || crc > 0xffffffff) {
      throw bad(`has an invalid entry for '${key}'`);
    }
    chunks.set(key, { size, crc32: crc });
  }
  return new JsonManifest(doc.content_version, chunks, aggregates);
}
