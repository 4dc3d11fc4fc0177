/**
 * Mapbox Vector Tile 2.1 encoding of polygon layers, written directly with PbfWriter (pbf 5).
 *
 * Tile = repeated Layer (field 3). Layer: version 15 = 2, name 1, features 2, keys 3, values 4, extent 5.
 * Feature: tags 2 (packed key/value index pairs), type 3 (3 = POLYGON), geometry 4 (packed commands). Geometry: per
 * ring MoveTo(1) with the first vertex, LineTo(n − 1) with the others, ClosePath; parameters are zig-zag encoded
 * deltas from the previous cursor position, which carries over from ring to ring. Exterior rings have positive area by
 * the surveyor's formula in tile coordinates (y down: clockwise on screen), interior rings negative, each exterior
 * ring followed by its holes; callers pass rings so oriented. Values are written as doubles, so every property of a
 * layer has one type.
 */
import { PbfWriter } from 'pbf';
import { TILE_EXTENT } from './web-mercator-tiles.js';

const MOVE_TO = 1;
const LINE_TO = 2;
const CLOSE_PATH = 7;
const POLYGON = 3;

const command = (id: number, count: number) => (id & 0x7) | (count << 3);
const zigzag = (n: number) => (n << 1) ^ (n >> 31);

/** A ring: x, y pairs of integer tile coordinates, not closed (the first vertex is not repeated). */
export type Ring = readonly number[];

interface Feature {
  readonly tags: number[];
  readonly geometry: number[];
}

/** One layer being filled with polygon features. */
export class MvtLayer {
  readonly name: string;
  readonly keys: readonly string[];
  readonly #values = new Map<number, number>();
  readonly #valueList: number[] = [];
  readonly #features: Feature[] = [];

  /** `keys` are the property names, in the order `addPolygon` receives their values. */
  constructor(name: string, keys: readonly string[]) {
    this.name = name;
    this.keys = keys;
  }

  /** Number of features so far. */
  get size(): number {
    return this.#features.length;
  }

  #valueIndex(v: number): number {
    let index = this.#values.get(v);
    if (index === undefined) {
      index = this.#valueList.length;
      this.#valueList.push(v);
      this.#values.set(v, index);
    }
    return index;
  }

  /**
   * Adds one polygon (an exterior ring, then its holes; more exteriors with their holes make a multipolygon) with
   * property values aligned with `keys`; a NaN value leaves that property out.
   */
  addPolygon(rings: readonly Ring[], values: readonly number[]): void {
    const tags: number[] = [];
    values.forEach((v, k) => {
      if (!Number.isNaN(v)) tags.push(k, this.#valueIndex(v));
    });
    const geometry: number[] = [];
    let cx = 0;
    let cy = 0;
    for (const ring of rings) {
      const n = ring.length / 2;
      for (let i = 0; i < n; i++) {
        if (i === 0) geometry.push(command(MOVE_TO, 1));
        else if (i === 1) geometry.push(command(LINE_TO, n - 1));
        const x = ring[2 * i];
        const y = ring[2 * i + 1];
        geometry.push(zigzag(x - cx), zigzag(y - cy));
        cx = x;
        cy = y;
      }
      geometry.push(command(CLOSE_PATH, 1));
    }
    this.#features.push({ tags, geometry });
  }

  /** Writes the layer's message body. */
  write(pbf: PbfWriter): void {
    pbf.writeVarintField(15, 2);
    pbf.writeStringField(1, this.name);
    for (const feature of this.#features) pbf.writeMessage(2, writeFeature, feature);
    for (const key of this.keys) pbf.writeStringField(3, key);
    for (const value of this.#valueList) pbf.writeMessage(4, writeDouble, value);
    pbf.writeVarintField(5, TILE_EXTENT);
  }
}

function writeFeature(feature: Feature, pbf: PbfWriter): void {
  pbf.writePackedVarint(2, feature.tags);
  pbf.writeVarintField(3, POLYGON);
  pbf.writePackedVarint(4, feature.geometry);
}

function writeDouble(value: number, pbf: PbfWriter): void {
  pbf.writeDoubleField(3, value);
}

function writeLayer(layer: MvtLayer, pbf: PbfWriter): void {
  layer.write(pbf);
}

/** The encoded tile; empty (zero bytes) when no layer has a feature. */
export function encodeTile(layers: readonly MvtLayer[]): Uint8Array {
  const filled = layers.filter((layer) => layer.size > 0);
  if (filled.length === 0) return new Uint8Array(0);
  const pbf = new PbfWriter();
  for (const layer of filled) pbf.writeMessage(3, writeLayer, layer);
  return pbf.finish();
}

/** Twice the signed area of a ring (surveyor's formula, tile coordinates): positive for an exterior ring. */
export function ringArea2(ring: Ring): number {
  let sum = 0;
  const n = ring.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) sum += ring[2 * j] * ring[2 * i + 1] - ring[2 * i] * ring[2 * j + 1];
  return sum;
}
