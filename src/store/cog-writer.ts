/**
 * Writes one float32 grid as a Cloud-Optimized GeoTIFF (classic TIFF, little-endian) that GDAL, QGIS and the COG
 * validator of GDAL accept:
 * - the main image and every overview tiled 256 × 256, deflate-compressed with the floating-point predictor (3);
 * - overviews halving the grid until it fits one tile (at least one level), averaged over the cells with a value
 *   (`average`) or taken from the top-left cell of each 2 × 2 block (`nearest`, for coded values);
 * - the layout the COG specification asks for: header, then every IFD (main first, then the overviews from the largest
 *   down, each followed by its out-of-line values), then the tile data from the smallest overview up to the main image;
 * - georeferencing by ModelPixelScale and ModelTiepoint (the grid's top-left corner, pixel-is-area) and the GeoKeys of
 *   a projected CRS given by its EPSG code; nodata in GDAL_NODATA; band description, unit, further dataset items and
 *   band items in GDAL_METADATA (GDAL reads no category names from it: those go in a PAM sidecar, pam-aux.ts).
 * Values equal to the nodata value, or NaN, are written as the nodata value.
 */
import { deflateSync } from 'node:zlib';

/** Tile edge, pixels. */
const TILE = 256;

/** What to write. */
export interface CogGrid {
  readonly width: number;
  readonly height: number;
  /** height × width values, row-major, north-up. */
  readonly values: Float32Array;
  /** EPSG code of the projected CRS. */
  readonly epsg: number;
  /** Top-left corner of the top-left cell (not its centre), CRS units. */
  readonly originX: number;
  readonly originY: number;
  /** Cell size, CRS units (square cells). */
  readonly cellSize: number;
  readonly nodata: number;
  /** How overviews combine 2 × 2 cells. */
  readonly resampling: 'average' | 'nearest';
  /** Band description (GDAL shows it as the band's description). */
  readonly description: string;
  /** Band unit ('' for none). */
  readonly unit: string;
  /** Further dataset metadata items (name → text). */
  readonly metadata?: Readonly<Record<string, string>>;
  /** Metadata items of the band (name → text); GDAL lists them under the band. */
  readonly bandMetadata?: Readonly<Record<string, string>>;
}

/** One image (main or overview): its size and its compressed tiles in row-major order. */
interface Level {
  readonly width: number;
  readonly height: number;
  readonly tiles: readonly Uint8Array[];
}

/** The 2 × 2 reduction of `values` (width × height), odd edges taking what exists. */
function halve(values: Float32Array, width: number, height: number, nodata: number, mode: CogGrid['resampling']) {
  const w = Math.ceil(width / 2), h = Math.ceil(height / 2);
  const out = new Float32Array(w * h);
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      let sum = 0;
      let n = 0;
      for (let dr = 0; dr < 2; dr++) {
        for (let dc = 0; dc < 2; dc++) {
          const rr = 2 * r + dr, cc = 2 * c + dc;
          if (rr >= height || cc >= width) continue;
          const v = values[rr * width + cc];
          if (v === nodata || Number.isNaN(v)) continue;
          if (mode === 'nearest') {
            if (n === 0) sum = v;
          } else sum += v;
          n++;
        }
      }
      out[r * w + c] = n === 0 ? nodata : mode === 'nearest' ? sum : sum / n;
    }
  }
  return { values: out, width: w, height: h };
}

/** Tile (tx, ty) of a level: TILE × TILE float32, padded with nodata, predictor 3 applied per row, deflated. */
function encodeTile(values: Float32Array, width: number, height: number, tx: number, ty: number, nodata: number) {
  const raw = new Float32Array(TILE * TILE).fill(nodata);
  for (let r = 0; r < TILE; r++) {
    const y = ty * TILE + r;
    if (y >= height) break;
    for (let c = 0; c < TILE; c++) {
      const x = tx * TILE + c;
      if (x >= width) break;
      const v = values[y * width + x];
      raw[r * TILE + c] = Number.isNaN(v) ? nodata : v;
    }
  }
  const bytes = new Uint8Array(raw.buffer);
  const out = new Uint8Array(bytes.length);
  const rowBytes = TILE * 4;
  for (let r = 0; r < TILE; r++) {
    const row = r * rowBytes;
    // Byte planes, most significant first (TIFF Technical Note 3), then horizontal differences over the row.
    for (let i = 0; i < TILE; i++) {
      for (let b = 0; b < 4; b++) out[row + (3 - b) * TILE + i] = bytes[row + i * 4 + b];
    }
    for (let i = rowBytes - 1; i > 0; i--) out[row + i] = (out[row + i] - out[row + i - 1]) & 0xff;
  }
  return new Uint8Array(deflateSync(out));
}

function level(values: Float32Array, width: number, height: number, nodata: number): Level {
  const tiles: Uint8Array[] = [];
  for (let ty = 0; ty < Math.ceil(height / TILE); ty++) {
    for (let tx = 0; tx < Math.ceil(width / TILE); tx++) tiles.push(encodeTile(values, width, height, tx, ty, nodata));
  }
  return { width, height, tiles };
}

const SHORT = 3, LONG = 4, ASCII = 2, DOUBLE = 12;
const TYPE_BYTES: Record<number, number> = { [SHORT]: 2, [LONG]: 4, [ASCII]: 1, [DOUBLE]: 8 };

/** One IFD entry before layout. */
interface Entry {
  readonly tag: number;
  readonly type: number;
  readonly values: readonly number[] | string;
}

/** Number of values of an entry (text: its UTF-8 bytes and the closing NUL, as GDAL reads GDAL_METADATA). */
function countOf(e: Entry): number {
  return typeof e.values === 'string' ? Buffer.byteLength(e.values, 'utf8') + 1 : e.values.length;
}

/** Bytes an entry's values take. */
function valueBytes(e: Entry): number {
  return countOf(e) * TYPE_BYTES[e.type]!;
}

/** Size of an IFD with its out-of-line values (each kept on an even offset). */
function ifdBytes(entries: readonly Entry[]): number {
  const extra = entries.reduce((n, e) => n + (valueBytes(e) > 4 ? valueBytes(e) + (valueBytes(e) & 1) : 0), 0);
  return 2 + entries.length * 12 + 4 + extra;
}

/** Writes an IFD at `at` in `view`, values after its entries; `next` is the offset of the next IFD (0: last). */
function writeIfd(view: DataView, at: number, entries: readonly Entry[], next: number): void {
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
function gdalMetadata(grid: CogGrid): string {
  const items = Object.entries(grid.metadata ?? {}).map(([k, v]) => `<Item name="${xmlEscape(k)}">${itemText(v)}</Item>`);
  for (const [k, v] of Object.entries(grid.bandMetadata ?? {})) items.push(`<Item name="${xmlEscape(k)}" sample="0">${itemText(v)}</Item>`);
  items.push(`<Item name="DESCRIPTION" sample="0" role="description">${itemText(grid.description)}</Item>`);
  if (grid.unit !== '') items.push(`<Item name="UNITTYPE" sample="0" role="unittype">${itemText(grid.unit)}</Item>`);
  return `<GDALMetadata>${items.join('')}</GDALMetadata>`;
}

/** The entries of one level's IFD, with `offsets` the file offsets of its tiles. */
function entriesOf(grid: CogGrid, lv: Level, overview: boolean, offsets: readonly number[]): Entry[] {
  const entries: Entry[] = [
    { tag: 254, type: LONG, values: [overview ? 1 : 0] },
    { tag: 256, type: LONG, values: [lv.width] },
    { tag: 257, type: LONG, values: [lv.height] },
    { tag: 258, type: SHORT, values: [32] },
    { tag: 259, type: SHORT, values: [8] },
    { tag: 262, type: SHORT, values: [1] },
    { tag: 277, type: SHORT, values: [1] },
    { tag: 284, type: SHORT, values: [1] },
    { tag: 317, type: SHORT, values: [3] },
    { tag: 322, type: LONG, values: [TILE] },
    { tag: 323, type: LONG, values: [TILE] },
    { tag: 324, type: LONG, values: offsets },
    { tag: 325, type: LONG, values: lv.tiles.map((t) => t.length) },
    { tag: 339, type: SHORT, values: [3] },
    { tag: 42113, type: ASCII, values: String(grid.nodata) },
  ];
  if (overview) return entries;
  return [
    ...entries,
    { tag: 33550, type: DOUBLE, values: [grid.cellSize, grid.cellSize, 0] },
    { tag: 33922, type: DOUBLE, values: [0, 0, 0, grid.originX, grid.originY, 0] },
    // GeoKeyDirectory: version 1.1.0, 3 keys: projected model, pixel-is-area, the EPSG code of the projected CRS.
    { tag: 34735, type: SHORT, values: [1, 1, 0, 3, 1024, 0, 1, 1, 1025, 0, 1, 1, 3072, 0, 1, grid.epsg] },
    { tag: 42112, type: ASCII, values: gdalMetadata(grid) },
  ];
}

/** The whole file. */
export function encodeCog(grid: CogGrid): Uint8Array {
  const { width, height, values, nodata, resampling } = grid;
  if (values.length !== width * height) {
    throw new RangeError(`The grid has ${values.length} values, not ${width * height}.`);
  }
  const levels: Level[] = [level(values, width, height, nodata)];
  let current = { values, width, height };
  do {
    current = halve(current.values, current.width, current.height, nodata, resampling);
    levels.push(level(current.values, current.width, current.height, nodata));
  } while (current.width > TILE || current.height > TILE);

  // Layout: header, IFDs (sizes do not depend on the offsets), then tile data from the smallest level up.
  const placeholder = (lv: Level) => lv.tiles.map(() => 0);
  const ifdSizes = levels.map((lv, i) => ifdBytes(entriesOf(grid, lv, i > 0, placeholder(lv))));
  const ifdAt: number[] = [];
  let at = 8;
  for (const size of ifdSizes) {
    ifdAt.push(at);
    at += size + (size & 1);
  }
  const tileOffsets: number[][] = levels.map(() => []);
  for (let i = levels.length - 1; i >= 0; i--) {
    for (const tile of levels[i]!.tiles) {
      tileOffsets[i]!.push(at);
      at += tile.length;
    }
  }
  const file = new Uint8Array(at);
  const view = new DataView(file.buffer);
  file.set([0x49, 0x49, 42, 0]);
  view.setUint32(4, ifdAt[0]!, true);
  levels.forEach((lv, i) => {
    writeIfd(view, ifdAt[i]!, entriesOf(grid, lv, i > 0, tileOffsets[i]!), i + 1 < levels.length ? ifdAt[i + 1]! : 0);
    lv.tiles.forEach((tile, k) => file.set(tile, tileOffsets[i]![k]!));
  });
  return file;
}
