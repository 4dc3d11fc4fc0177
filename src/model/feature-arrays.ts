/**
 * The arrays of `CellFeatures` (cell-features.ts) as memory: which element type each has and how many values a cell
 * takes, so that a caller can allocate them once for windows of up to some number of cells and have every feature
 * source (feature-source.ts) write a window's features into them (generation reuses a few such sets from window to
 * window: feature-slots.ts). All of them lie in SharedArrayBuffers: generator threads read them without copies.
 */
import { SECTORS, type CellFeatures } from './cell-features.js';

/** The element type of a feature array. */
type CellArrayCtor = { new (buffer: SharedArrayBuffer): Uint8Array | Float32Array; readonly BYTES_PER_ELEMENT: number };

/** Element type and values a cell of every array of `CellFeatures`. */
const FEATURE_LAYOUT: { readonly [K in keyof CellFeatures]: readonly [CellArrayCtor, number] } = {
  surface: [Uint8Array, 1],
  outdoor: [Uint8Array, 1],
  buildingHeight: [Float32Array, 1],
  horizon: [Float32Array, SECTORS],
  skyView: [Float32Array, 1],
  traffic: [Float32Array, 1],
  canyon: [Float32Array, 1],
  windFactor: [Float32Array, SECTORS],
  turbulence: [Float32Array, 1],
  background: [Float32Array, 1],
  taOffset: [Float32Array, 1],
  pollution: [Float32Array, SECTORS],
  radiantGain: [Float32Array, 1],
};

/** The names of the arrays of `CellFeatures`. */
export const FEATURE_NAMES = Object.keys(FEATURE_LAYOUT) as readonly (keyof CellFeatures)[];

/** Bytes of features one cell takes (every array together). */
export const FEATURE_BYTES_PER_CELL = FEATURE_NAMES.reduce((sum, name) => {
  const [Ctor, perCell] = FEATURE_LAYOUT[name];
  return sum + Ctor.BYTES_PER_ELEMENT * perCell;
}, 0);

/** Every feature array for `cells` cells, zero-filled, each over a SharedArrayBuffer of its own. */
export function allocateCellFeatures(cells: number): CellFeatures {
  const out: Record<string, Uint8Array | Float32Array> = {};
  for (const name of FEATURE_NAMES) {
    const [Ctor, perCell] = FEATURE_LAYOUT[name];
    out[name] = new Ctor(new SharedArrayBuffer(cells * perCell * Ctor.BYTES_PER_ELEMENT));
  }
  return out as unknown as CellFeatures;
}

/**
 * Views of the first `cells` cells of every array of `features` (which must hold at least that many): what a window
 * of `cells` cells is written into. The values are whatever the arrays held before; writers set every one.
 */
export function cutCellFeatures(features: CellFeatures, cells: number): CellFeatures {
  const out: Record<string, Uint8Array | Float32Array> = {};
  for (const name of FEATURE_NAMES) {
    const n = cells * FEATURE_LAYOUT[name][1];
    const values = features[name];
    if (values.length < n) throw new RangeError(`Feature '${name}' holds ${values.length} values, not the ${n} of ${cells} cells.`);
    out[name] = values.subarray(0, n);
  }
  return out as unknown as CellFeatures;
}
