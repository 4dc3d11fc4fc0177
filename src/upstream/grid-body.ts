/**
 * The API's reading of the model service's binary grid answers (slices and static arrays, model-service-contract.ts): the size
 * headers must agree with the body, and values land in SharedArrayBuffer-backed arrays, so they can be handed to
 * compute threads without copying. A disagreeing or truncated answer is the upstream's failure (`UpstreamError`).
 */
import { endianness } from 'node:os';
import { UpstreamError } from '../errors.js';
import type { UpstreamResponse } from './upstream-types.js';

const LITTLE_ENDIAN = endianness() === 'LE';

/** Most cells a grid answer may describe (a 1 m grid of 8 km × 8 km). */
const MAX_GRID_CELLS = 64_000_000;

/** A grid array as received. */
export interface GridArray<T extends Float32Array | Uint8Array> {
  readonly values: T;
  readonly nx: number;
  readonly ny: number;
}

function dimension(name: string, response: UpstreamResponse, header: string): number {
  const raw = response.headers[header];
  if (raw === undefined || !/^[1-9][0-9]{0,8}$/.test(raw)) throw new UpstreamError(`The ${name} sent a grid without a valid ${header} header.`);
  return Number(raw);
}

function sized(name: string, response: UpstreamResponse, bytesPerCell: number): { nx: number; ny: number } {
  const nx = dimension(name, response, 'x-grid-nx');
  const ny = dimension(name, response, 'x-grid-ny');
  if (nx * ny > MAX_GRID_CELLS) throw new UpstreamError(`The ${name} sent a grid of ${nx} × ${ny} cells, more than accepted.`);
  if (response.body.byteLength !== nx * ny * bytesPerCell) {
    throw new UpstreamError(`The ${name} sent a grid body of ${response.body.byteLength} bytes for ${nx} × ${ny} cells.`);
  }
  return { nx, ny };
}

/** float32 little-endian cells, into shared memory. */
export function readFloat32Grid(name: string, response: UpstreamResponse): GridArray<Float32Array> {
  const { nx, ny } = sized(name, response, 4);
  const values = new Float32Array(new SharedArrayBuffer(nx * ny * 4));
  const { body } = response;
  if (LITTLE_ENDIAN) {
    // One copy of the bytes (a large grid must not hold the event loop for a value-by-value read).
    new Uint8Array(values.buffer).set(body);
  } else {
    const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
    for (let i = 0; i < values.length; i++) values[i] = view.getFloat32(i * 4, true);
  }
  return { values, nx, ny };
}

/** One byte per cell, into shared memory. */
export function readUint8Grid(name: string, response: UpstreamResponse): GridArray<Uint8Array> {
  const { nx, ny } = sized(name, response, 1);
  const values = new Uint8Array(new SharedArrayBuffer(nx * ny));
  values.set(response.body);
  return { values, nx, ny };
}
