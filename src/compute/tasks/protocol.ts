/**
 * The one message protocol both sides of the compute-thread boundary import: the statistics family's tasks and values
 * (their kinds are defined in statistics-tasks.ts) and the thread's own kinds (thread-tasks.ts). Tasks and replies are
 * plain data, structured-cloned across the thread boundary: nothing is transferred, so the `records` ArrayBuffers of
 * partial accumulations (about 1.1 MB for a year of hours) are copied once each way. Errors travel as `SerializedError` and are rebuilt on the caller's side (errors cross threads as
 * data). Task families of other folders define their own tasks (map/map-tasks.ts: grid slices as views of
 * SharedArrayBuffers, shared, not copied).
 */
import type { SerializedError } from '../../errors.js';
import type { AggregateRef } from '../../store/aggregate-files.js';
import type { StatsComputation, StatsRequest } from '../compute-types.js';

/** Chunks of one dataset and, per chunk, which of its cells are sampled. */
export interface ChunkSelection {
  readonly chunkRow: number;
  readonly chunkCol: number;
  /** One byte per chunk cell (rows × cols), 1 = sampled. */
  readonly mask: Uint8Array;
}

/** Computes a whole statistics request in one thread (sampling, reads, kernel, blocks). */
export interface StatsTask {
  readonly kind: 'stats';
  readonly dataDir: string;
  readonly request: StatsRequest;
  /** false: decode every chunk even where stored aggregates cover the sample (benchmarks, differential tests). */
  readonly aggregates?: boolean;
}

/**
 * Accumulates phase A over some stored aggregates and chunks; replies with the raw accumulator records (mergeable by
 * addition).
 */
export interface AccumulateTask {
  readonly kind: 'accumulate';
  readonly dataDir: string;
  readonly dataset: string;
  readonly chunks: readonly ChunkSelection[];
  /** Stored aggregates to merge (sample-plan.ts), of the generation the requester's view of the dataset has. */
  readonly aggregates?: PlannedAggregates;
}

/**
 * Aggregates a requester planned, with the generation its view of the dataset lists. A thread whose view lists
 * another generation reopens the dataset; if it still differs (the store changed again), it decodes the blocks'
 * chunks instead: the same cells, so the same answer.
 */
export interface PlannedAggregates {
  readonly generation: string;
  readonly refs: readonly AggregateRef[];
}

/** Merges partial accumulations and runs phase B; replies with the blocks. */
export interface FinalizeTask {
  readonly kind: 'finalize';
  readonly dataDir: string;
  readonly dataset: string;
  readonly records: readonly ArrayBuffer[];
}

/**
 * `finalize` with each part as the `accumulate` reply's encoded bytes (task-codec.ts), decoded by the thread: how a
 * cluster requester passes the parts on without decoding and encoding them again. A kind of its own, so a worker
 * that does not know it hands the task back instead of finalizing nothing.
 */
export interface FinalizePartsTask {
  readonly kind: 'finalize-parts';
  readonly dataDir: string;
  readonly dataset: string;
  readonly parts: readonly Uint8Array[];
}

/** Point statistics of every outdoor cell of one chunk row (the whole-city precompute). */
export interface PrecomputeRowTask {
  readonly kind: 'precompute-row';
  readonly dataDir: string;
  readonly dataset: string;
  readonly chunkRow: number;
  /** `cells` (default): the precompute kernel; `per-cell`: the statistics kernel cell by cell (oracle, benchmark). */
  readonly method?: 'cells' | 'per-cell';
}

/** The surroundings grid of a report (per-cell annual values in a window around the location, compute/surroundings/surroundings-grid.ts). */
export interface SurroundingsTask {
  readonly kind: 'surroundings';
  readonly dataDir: string;
  readonly request: StatsRequest;
}

/** Makes the worker fail on purpose; accepted only by pools created with `allowFaultInjection` (tests). */
export interface FaultTask {
  readonly kind: 'fault';
  readonly action: 'exit' | 'throw';
}

/**
 * A task as the bytes it crossed NATS in (task-codec.ts), run by a cluster worker's thread: the thread decodes it,
 * checks its kind, gives it the worker's data directory, runs it and replies with the value encoded the same way.
 * Decoding and encoding thus run in the compute thread, not on the worker's main thread, which only moves bytes
 * between NATS and the pool (its message path stays short: docs/cluster.md, "Latency of a task").
 */
export interface EncodedTask {
  readonly kind: 'encoded';
  readonly payload: Uint8Array;
  /** The kind the payload must hold (the subject it arrived on). */
  readonly expect: string;
  /** Replaces the task's data directory (kinds that read a dataset; tasks never carry their sender's). */
  readonly dataDir?: string;
}

/** Asks a compute thread which task kinds it serves (task-registry.ts `servedKinds`). */
export interface TaskKindsTask {
  readonly kind: 'task-kinds';
}

/** Blocks of phase B, as plain JSON objects. */
export type BlocksValue = StatsComputation['blocks'];

/** Per-cell results of one precomputed chunk row: Float32Array per output grid, row-major within the row band. */
export interface PrecomputeRowValue {
  readonly chunkRow: number;
  /** First grid row of the band and number of rows. */
  readonly row0: number;
  readonly rows: number;
  readonly grids: Readonly<Record<string, Float32Array>>;
  readonly cellsComputed: number;
}

/** A worker's reply: a value, or an error as data. */
export type ComputeReply<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: SerializedError };
