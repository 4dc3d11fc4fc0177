/**
 * The pixels of a Cloud-Optimized GeoTIFF, one band of tile rows at a time: the tiles of a band (256 rows or, at an
 * image's foot, fewer) deflated with the floating-point predictor, and the 2 × 2 reduction of a band into the next
 * overview's rows. A band of an even number of rows reduces exactly as the whole image would, so reducing band by
 * band gives the same overviews as reducing the whole grid.
 */
import { deflateSync } from 'node:zlib';
import { COG_TILE as TILE } from './cog-ifd.js';

/** How overviews combine 2 × 2 cells: the mean of the cells with a value, or the first of them (coded values). */
export type CogResampling = 'average' | 'nearest';

/** The 2 × 2 reduction of a band of `rows` rows of `width` values; odd edges take what exists. */
export function halveBand(values: Float32Array, width: number, rows: number, nodata: number, mode: CogResampling): Float32Array {
  const w = Math.ceil(width / 2), h = Math.ceil(rows / 2);
  const out = new Float32Array(w * h);
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      let sum = 0;
      let n = 0;
      for (let dr = 0; dr < 2; dr++) {
        for (let dc = 0; dc < 2; dc++) {
          const rr = 2 * r + dr, cc = 2 * c + dc;
          if (rr >= rows || cc >= width) continue;
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
  return out;
}

/**
 * Tile `tx` of a band: TILE × TILE float32 padded with nodata, predictor 3 applied per row, deflated. `raw` and `out`
 * are scratch of TILE × TILE values, reused from tile to tile.
 */
function encodeTile(values: Float32Array, width: number, rows: number, tx: number, nodata: number, raw: Float32Array, out: Uint8Array): Uint8Array {
  raw.fill(nodata);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < TILE; c++) {
      const x = tx * TILE + c;
      if (x >= width) break;
      const v = values[r * width + x];
      raw[r * TILE + c] = Number.isNaN(v) ? nodata : v;
    }
  }
  const bytes = new Uint8Array(raw.buffer);
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

/** The tiles of one tile row, west to east, from a band of `rows` ≤ TILE rows of `width` values. */
export function encodeTileRow(values: Float32Array, width: number, rows: number, nodata: number): Uint8Array[] {
  const raw = new Float32Array(TILE * TILE);
  const out = new Uint8Array(TILE * TILE * 4);
  return Array.from({ length: Math.ceil(width / TILE) }, (_, tx) => encodeTile(values, width, rows, tx, nodata, raw, out));
}
