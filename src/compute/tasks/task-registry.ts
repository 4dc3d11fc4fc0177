/**
 * The compute-thread tasks by kind, derived from their definitions (task-definition.ts). Each task family registers
 * itself from its own folder — the statistics family in compute/tasks/statistics-tasks.ts, the map's tiles and ranges
 * in map/map-tasks.ts — and the compute thread's entry (workers/compute-worker.ts) loads the families, so a new task
 * kind touches one file. A cluster worker asks its own threads which kinds they serve (`TASK_KINDS_TASK`) instead of
 * keeping a list of its own.
 */
import type { AnyTaskDefinition } from './task-definition.js';

/** A family of task kinds: their definitions. */
export type TaskFamily = readonly AnyTaskDefinition[];

/** What a thread answers to `task-kinds`: every kind it serves and whether it reads data. */
export interface ServedKind {
  readonly kind: string;
  readonly readsData: boolean;
  readonly remote: boolean;
}

const registered = new Map<string, AnyTaskDefinition>();

/** Registers a family in this thread; registering a family again is harmless, another family's kind is refused. */
export function registerTaskFamily(family: TaskFamily): void {
  for (const definition of family) {
    const known = registered.get(definition.kind);
    if (known !== undefined && known !== definition) throw new Error(`Task kind '${definition.kind}' is registered twice.`);
    registered.set(definition.kind, definition);
  }
}

/** The registered kind `kind`, if any. */
export function taskKindOf(kind: string): AnyTaskDefinition | undefined {
  return registered.get(kind);
}

/** Every kind registered in this thread. */
export function servedKinds(): ServedKind[] {
  return [...registered.values()].map(({ kind, readsData, remote }) => ({ kind, readsData, remote }));
}
