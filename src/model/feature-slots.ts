/**
 * Shared memory for the features of the windows generation has in flight, reused window after window. A generator
 * thread that read a window's features keeps its references to their SharedArrayBuffers until its own garbage
 * collection, which a thread that allocates little (a short year) may put off for the whole run: fresh buffers for
 * every window would then all stay alive, and memory would follow the area again. Copying each window's features
 * into one of a few slots allocated once keeps what the threads can hold to those slots.
 */
import type { CellFeatures } from './cell-features.js';

type CellArray = Uint8Array | Float32Array;

/** Feature arrays over SharedArrayBuffers, each for up to `cells` cells. */
type Slot = Record<string, CellArray>;

/** Slots for windows of up to `cells` cells; a slot is taken for a window and given back once its chunks are written. */
export class FeatureSlots {
  readonly #cells: number;
  readonly #free: Slot[] = [];

  constructor(cells: number) {
    this.#cells = cells;
  }

  /** A copy of `features` (of `cells` ≤ the slots' cells) in a free slot (a new one when none is free). */
  take(features: CellFeatures, cells: number): CellFeatures {
    const slot = this.#free.pop() ?? this.#allocate(features);
    const out: Record<string, CellArray> = {};
    for (const [name, values] of Object.entries(features) as [string, CellArray][]) {
      const view = slot[name]!.subarray(0, (values.length / cells) * cells);
      view.set(values);
      out[name] = view;
    }
    return out as unknown as CellFeatures;
  }

  /** Gives back the slot `features` (a `take` result) lies in. */
  give(features: CellFeatures): void {
    const slot: Slot = {};
    for (const [name, view] of Object.entries(features) as [string, CellArray][]) {
      const Ctor = view.constructor as new (b: ArrayBufferLike) => CellArray;
      slot[name] = new Ctor(view.buffer);
    }
    this.#free.push(slot);
  }

  /** A slot shaped like `features` (same arrays, values per cell and element types). */
  #allocate(features: CellFeatures): Slot {
    const slot: Slot = {};
    const cells = features.outdoor.length;
    for (const [name, values] of Object.entries(features) as [string, CellArray][]) {
      const Ctor = values.constructor as new (b: ArrayBufferLike) => CellArray;
      slot[name] = new Ctor(new SharedArrayBuffer((values.length / cells) * this.#cells * values.BYTES_PER_ELEMENT));
    }
    return slot;
  }
}
