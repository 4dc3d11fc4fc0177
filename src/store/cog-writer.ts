/**
 * Writes one float32 grid as a Cloud-Optimized GeoTIFF (classic TIFF, little-endian) that GDAL, QGIS and the COG
 * validator of GDAL accept, streaming: the grid comes from a row-band source, read 256 rows at a time, and memory
 * holds one band of tiles per image (the main image's band, half a band's width for the first overview, …: under
 * two bands of the main image in all), whatever the grid's height.
 * - the main image and every overview tiled 256 × 256, deflate-compressed with the floating-point predictor (3);
 * - overviews halving the grid until it fits one tile (at least one level), averaged over the cells with a value
 *   (`average`) or taken from the top-left cell of each 2 × 2 block (`nearest`, for coded values), built band by
 *   band as the main image's bands arrive (cog-tiles.ts);
 * - the layout the COG specification asks for: header, then every IFD (main first, then the overviews from the largest
 *   down, each followed by its out-of-line values), then the tile data from the smallest overview up to the main image;
 * - georeferencing by ModelPixelScale and ModelTiepoint (the grid's top-left corner, pixel-is-area) and the GeoKeys of
 *   a projected CRS given by its EPSG code; nodata in GDAL_NODATA; band description, unit and any further items in
 *   GDAL_METADATA.
 * Values equal to the nodata value, or NaN, are written as the nodata value.
 *
 * Why spool files: a COG puts the IFDs (with every tile's offset and byte count) first and the smallest overview's
 * tiles before the main image's, but the main image's tiles are made first and no compressed size is known before its
 * tile is made. Reserving the IFDs' space would fix where the IFDs go (their size depends only on tile counts), not
 * where the main image's data starts, which follows every overview's data. So each image's tiles are appended to a
 * temporary file beside the output as they are made, and once all are made the file is assembled: header and IFDs
 * (now with every offset), then the spools poured in order, a megabyte at a time. The cost is one extra write and
 * read of the compressed data; memory stays at a band.
 */
import { open } from 'node:fs/promises';
import { COG_TILE as TILE, ifdBytes, ifdEntries, writeIfd, type CogDescription } from './cog-ifd.js';
import { encodeTileRow, halveBand, type CogResampling } from './cog-tiles.js';
import { createSpool, type SpoolFile } from './spool-file.js';

/** A grid read by bands of rows, north to south. */
export interface RowBandSource {
  readonly width: number;
  readonly height: number;
  /** Rows `r0` … `r1` − 1: (r1 − r0) × width values, row-major, north-up (NaN or nodata where there is none). */
  readRows(r0: number, r1: number): Promise<Float32Array> | Float32Array;
}

/** What the file says besides the pixels. */
export interface CogSpec extends CogDescription {
  readonly resampling: CogResampling;
}

/** Largest offset a classic TIFF can hold. */
const MAX_CLASSIC_BYTES = 2 ** 32 - 1;

/** One image being written: its size, the band of rows filling up, and its tiles so far (in its spool). */
interface ImageState {
  readonly width: number;
  readonly height: number;
  readonly band: Float32Array;
  bandRows: number;
  rowsIn: number;
  readonly spool: SpoolFile;
  readonly byteCounts: number[];
}

/** Sizes of the main image and its overviews: halving until it fits one tile, at least one overview. */
export function cogImageSizes(width: number, height: number): [number, number][] {
  const sizes: [number, number][] = [[width, height]];
  let [w, h] = [width, height];
  do {
    [w, h] = [Math.ceil(w / 2), Math.ceil(h / 2)];
    sizes.push([w, h]);
  } while (w > TILE || h > TILE);
  return sizes;
}

/** Writes the COG of `source` to `path` (created or replaced; write to a temporary name to publish atomically). */
export async function writeCog(path: string, spec: CogSpec, source: RowBandSource): Promise<number> {
  const { width, height } = source;
  if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0)) {
    throw new RangeError(`A COG needs a positive grid, not ${width} × ${height}.`);
  }
  const images: ImageState[] = [];
  try {
    for (const [w, h] of cogImageSizes(width, height)) {
      images.push({
        width: w, height: h, band: new Float32Array(TILE * w), bandRows: 0, rowsIn: 0, byteCounts: [],
        spool: await createSpool(path, `level${images.length}`),
      });
    }
    for (let r0 = 0; r0 < height; r0 += TILE) {
      const r1 = Math.min(height, r0 + TILE);
      const values = await source.readRows(r0, r1);
      if (values.length !== (r1 - r0) * width) {
        throw new RangeError(`Rows ${r0} to ${r1 - 1} of the grid came as ${values.length} values, not ${(r1 - r0) * width}.`);
      }
      await accept(images, 0, values, r1 - r0, spec);
    }
    return await assemble(path, spec, images);
  } finally {
    await Promise.all(images.map((image) => image.spool.remove()));
  }
}

/** Adds `rows` rows to image `k`; a full band (or the image's last rows) becomes tiles and the next image's rows. */
async function accept(images: ImageState[], k: number, values: Float32Array, rows: number, spec: CogSpec): Promise<void> {
  const image = images[k]!;
  for (let done = 0; done < rows;) {
    const take = Math.min(rows - done, TILE - image.bandRows);
    image.band.set(values.subarray(done * image.width, (done + take) * image.width), image.bandRows * image.width);
    image.bandRows += take;
    image.rowsIn += take;
    done += take;
    if (image.bandRows < TILE && image.rowsIn < image.height) continue;
    const band = image.band.subarray(0, image.bandRows * image.width);
    for (const tile of encodeTileRow(band, image.width, image.bandRows, spec.nodata)) {
      await image.spool.append(tile);
      image.byteCounts.push(tile.byteLength);
    }
    if (k + 1 < images.length) {
      const halved = halveBand(band, image.width, image.bandRows, spec.nodata, spec.resampling);
      await accept(images, k + 1, halved, Math.ceil(image.bandRows / 2), spec);
    }
    image.bandRows = 0;
  }
}

/** Lays out header, IFDs and data, and writes the file: IFDs from memory, tiles poured from the spools. */
async function assemble(path: string, spec: CogSpec, images: readonly ImageState[]): Promise<number> {
  const layout = (offsets: (k: number) => number[]) => images.map((image, k) => ifdEntries(spec, {
    width: image.width, height: image.height, offsets: offsets(k), byteCounts: image.byteCounts,
  }, k > 0));
  const sizes = layout((k) => images[k]!.byteCounts.map(() => 0)).map(ifdBytes);
  const ifdAt: number[] = [];
  let at = 8;
  for (const size of sizes) {
    ifdAt.push(at);
    at += size + (size & 1);
  }
  const headBytes = at;
  const dataAt: number[] = [];
  for (let k = images.length - 1; k >= 0; k--) {
    dataAt[k] = at;
    at += images[k]!.spool.size;
  }
  if (at > MAX_CLASSIC_BYTES) throw new RangeError(`The COG would take ${at} bytes, beyond the 4 GiB of a classic TIFF.`);
  const entries = layout((k) => {
    let offset = dataAt[k]!;
    return images[k]!.byteCounts.map((n) => (offset += n) - n);
  });
  const head = new Uint8Array(headBytes);
  const view = new DataView(head.buffer);
  head.set([0x49, 0x49, 42, 0]);
  view.setUint32(4, ifdAt[0]!, true);
  entries.forEach((e, k) => writeIfd(view, ifdAt[k]!, e, k + 1 < images.length ? ifdAt[k + 1]! : 0));
  const out = await open(path, 'w');
  try {
    await out.write(head, 0, head.byteLength, 0);
    for (let k = images.length - 1; k >= 0; k--) await images[k]!.spool.pourInto(out, dataAt[k]!);
  } finally {
    await out.close();
  }
  return at;
}
