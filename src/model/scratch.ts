/**
 * Working arrays a feature computation reuses from one window to the next (the raster of a window's surroundings,
 * noise fields, nearest façades), so that computing window after window allocates nothing in proportion to a window:
 * garbage the main thread would otherwise leave for the collector, window after window, and resident memory would
 * follow the number of windows (the grid's area) until it came. A buffer grows when a larger window asks for it and is
 * then kept. Values are whatever the last user left: a user writes every element it reads, or fills first.
 *
 * One scratch serves one computation at a time (callers run synchronously, one window after another); a fresh
 * `Scratch` per call allocates as plain arrays would.
 */

type ScratchArray = Uint8Array | Int8Array | Float32Array;
type ScratchCtor<T extends ScratchArray> = { new (buffer: ArrayBuffer, offset: number, length: number): T; readonly BYTES_PER_ELEMENT: number };

/** Named working buffers, each kept at the largest size asked. */
export class Scratch {
  readonly #buffers = new Map<string, ArrayBuffer>();

  /** `length` elements of `Ctor` in the buffer named `name` (grown when too small), values as last left. */
  array<T extends ScratchArray>(name: string, Ctor: ScratchCtor<T>, length: number): T {
    const bytes = length * Ctor.BYTES_PER_ELEMENT;
    let buffer = this.#buffers.get(name);
    if (buffer === undefined || buffer.byteLength < bytes) {
      buffer = new ArrayBuffer(bytes);
      this.#buffers.set(name, buffer);
    }
    return new Ctor(buffer, 0, length);
  }
}
