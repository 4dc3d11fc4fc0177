/**
 * The TIFF directories (IFDs) of a Cloud-Optimized GeoTIFF (classic TIFF, little-endian): the entries of one image
 * (main or overview), their size and their bytes. An IFD's size depends only on its tile count, never on the tile
 * offsets, so a writer can lay out every IFD before any offset is known (cog-writer.ts).
 */

/** Tile edge, pixels. */
export const COG_TILE = 256;

const SHORT = 3, LONG = 4, ASCII = 2, DOUBLE = 12;
const TYPE_BYTES: Record<number, number> = { [SHORT]: 2, [LONG]: 4, [ASCII]: 1, [DOUBLE]: 8 };

/** One IFD entry before layout. */
export interface IfdEntry {
  readonly tag: number;
  readonly type: number;
  readonly values: readonly number[] | string;
}

/** What every image of the file shares: georeferencing, nodata and the band's description. */
export interface CogDescription {
  /** EPSG code of the projected CRS. */
  readonly epsg: number;
  /** Top-left corner of the top-left cell (not its centre), CRS units. */
  readonly originX: number;
  readonly originY: number;
  /** Cell size, CRS units (square cells). */
  readonly cellSize: number;
  readonly nodata: number;
  /** Band description (GDAL shows it as the band's description). */
  readonly description: string;
  /** Band unit ('' for none). */
  readonly unit: string;
  /** Further dataset metadata items (name → text). */
  readonly metadata?: Readonly<Record<string, string>>;
  /** Metadata items of the band (name → text); GDAL lists them under the band. */
  readonly bandMetadata?: Readonly<Record<string, string>>;
}

/** One image's place in the file: size, and per tile (row-major) its offset and byte count. */
export interface IfdImage {
  readonly width: number;
  readonly height: number;
  readonly offsets: readonly number[];
  readonly byteCounts: readonly number[];
}

/** Number of values of an entry (text: its UTF-8 bytes and the closing NUL, as GDAL reads GDAL_METADATA). */
function countOf(e: IfdEntry): number {
  return typeof e.values === 'string' ? Buffer.byteLength(e.values, 'utf8') + 1 : e.values.length;
}

/** Bytes an entry's values take. */
function valueBytes(e: IfdEntry): number {
  return countOf(e) * TYPE_BYTES[e.type]!;
}

/** Size of an IFD with its out-of-line values (each kept on an even offset). */
export function ifdBytes(entries: readonly IfdEntry[]): number {
  const extra = entries.reduce((n, e) => n + (valueBytes(e) > 4 ? valueBytes(e) + (valueBytes(e) & 1) : 0), 0);
  return 2 + entries.length * 12 + 4 + extra;
}

/** Writes an IFD at `at` in `view`, values after its entries; `next` is the offset of the next IFD (0: last). */
export function writeIfd(view: DataView, at: number, entries: readonly IfdEntry[], next: number): void {
  const sorted = [...entries].sort((a, b) => a.tag - b.tag);
  view.setUint16(at, sorted.length, true);
  let extra = at + 2 + sorted.length * 12 + 4;
  sorted.forEach((e, i) => {
    const p = at + 2 + i * 12;
    view.setUint16(p, e.tag, true);
    view.setUint16(p + 2, e.type, true);
    view.setUint32(p + 4, countOf(e), true);
    const size = valueBytes(e);
    const target = size > 4 ? extra : p + 8;
    if (size > 4) {
      view.setUint32(p + 8, extra, true);
      extra += size + (size & 1);
    }
    if (typeof e.values === 'string') {
      const text = Buffer.from(e.values, 'utf8');
      new Uint8Array(view.buffer, view.byteOffset + target, text.length).set(text);
      view.setUint8(target + text.length, 0);
      return;
    }
    e.values.forEach((v, k) => {
      if (e.type === SHORT) view.setUint16(target + 2 * k, v, true);
      else if (e.type === LONG) view.setUint32(target + 4 * k, v, true);
      else view.setFloat64(target + 8 * k, v, true);
    });
  });
  view.setUint32(at + 2 + sorted.length * 12, next, true);
}

/** XML-escapes a metadata text. */
export function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * An item's text as GDAL stores it: XML-escaped twice, since GDAL escapes a value before the XML serialiser escapes it
 * again, and unescapes twice on reading (escaped once, "a & b" reads back as "a ").
 */
function itemText(value: string): string {
  return xmlEscape(xmlEscape(value));
}

/** The GDAL_METADATA document: dataset items, then the band's items, description and unit. */
function gdalMetadata(d: CogDescription): string {
  const items = Object.entries(d.metadata ?? {}).map(([k, v]) => `<Item name="${xmlEscape(k)}">${itemText(v)}</Item>`);
  for (const [k, v] of Object.entries(d.bandMetadata ?? {})) items.push(`<Item name="${xmlEscape(k)}" sample="0">${itemText(v)}</Item>`);
  items.push(`<Item name="DESCRIPTION" sample="0" role="description">${itemText(d.description)}</Item>`);
  if (d.unit !== '') items.push(`<Item name="UNITTYPE" sample="0" role="unittype">${itemText(d.unit)}</Item>`);
  return `<GDALMetadata>${items.join('')}</GDALMetadata>`;
}

/** The entries of one image's IFD (float32, deflate, floating-point predictor, 256 × 256 tiles). */
export function ifdEntries(d: CogDescription, image: IfdImage, overview: boolean): IfdEntry[] {
  const entries: IfdEntry[] = [
    { tag: 254, type: LONG, values: [overview ? 1 : 0] },
    { tag: 256, type: LONG, values: [image.width] },
    { tag: 257, type: LONG, values: [image.height] },
    { tag: 258, type: SHORT, values: [32] },
    { tag: 259, type: SHORT, values: [8] },
    { tag: 262, type: SHORT, values: [1] },
    { tag: 277, type: SHORT, values: [1] },
    { tag: 284, type: SHORT, values: [1] },
    { tag: 317, type: SHORT, values: [3] },
    { tag: 322, type: LONG, values: [COG_TILE] },
    { tag: 323, type: LONG, values: [COG_TILE] },
    { tag: 324, type: LONG, values: image.offsets },
    { tag: 325, type: LONG, values: image.byteCounts },
    { tag: 339, type: SHORT, values: [3] },
    { tag: 42113, type: ASCII, values: String(d.nodata) },
  ];
  if (overview) return entries;
  return [
    ...entries,
    { tag: 33550, type: DOUBLE, values: [d.cellSize, d.cellSize, 0] },
    { tag: 33922, type: DOUBLE, values: [0, 0, 0, d.originX, d.originY, 0] },
    // GeoKeyDirectory: version 1.1.0, 3 keys: projected model, pixel-is-area, the EPSG code of the projected CRS.
    { tag: 34735, type: SHORT, values: [1, 1, 0, 3, 1024, 0, 1, 1, 1025, 0, 1, 1, 3072, 0, 1, d.epsg] },
    { tag: 42112, type: ASCII, values: gdalMetadata(d) },
  ];
}
