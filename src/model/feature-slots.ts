/**
 * Shared memory for the features of the windows generation has in flight, reused window after window. A generator
 * thread that read a window's features keeps its references to their SharedArrayBuffers until its own garbage
 * collection, which a thread that allocates little (a short year) may put off for the whole run: fresh buffers for
 * every window would then all stay alive, and memory would follow the area again. The feature sources write each
 * window's features straight into one of a few slots allocated once (feature-source.ts `features(window, into)`), so
 * what the threads can hold stays those slots, and the main thread leaves no window-sized garbage behind either.
 */
import type { CellFeatures } from './cell-features.js';
import { allocateCellFeatures } from './feature-arrays.js';

/** Slots for windows of up to `cells` cells; a slot is taken for a window and given back once its chunks are written. */
export class FeatureSlots {
  readonly #cells: number;
  readonly #free: CellFeatures[] = [];

  constructor(cells: number) {
    this.#cells = cells;
  }

  /** A free slot (a new one when none is free): feature arrays for `cells` cells, values as last written. */
  take(): CellFeatures {
    return this.#free.pop() ?? allocateCellFeatures(this.#cells);
  }

  /** Gives back `slot` (a `take` result, whole). */
  give(slot: CellFeatures): void {
    this.#free.push(slot);
  }
}
