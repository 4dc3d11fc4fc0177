/**
 * The compute-thread tasks by kind. Each task family registers itself from its own folder — the statistics family
 * here in compute/ (compute-tasks.ts), the map's tiles and ranges in map/map-tasks.ts — and the compute thread's entry
 * (workers/compute-worker.ts) loads the families, so a new task kind touches one file. A cluster worker asks its own
 * threads which kinds they serve (`task-kinds`) instead of keeping a list of its own.
 */

/** What every task is: a value with its kind. */
export interface TaskShape {
  readonly kind: string;
}

/** One kind of task: how a compute thread runs it. */
export interface TaskKind<T extends TaskShape = TaskShape> {
  /** Runs the task in the calling thread; a `ServiceError` is its answer. */
  run(task: T): unknown;
  /** The task reads a dataset (it carries `dataDir`; a cluster worker gives it its own). */
  readonly readsData?: boolean;
  /** The task may be sent to a cluster worker (default true); local-only kinds (writing files, faults) are not. */
  readonly remote?: boolean;
}

/** A family of task kinds, by kind. */
export type TaskFamily = Readonly<Record<string, TaskKind<never>>>;

/** What a thread answers to `task-kinds`: every kind it serves and whether it reads data. */
export interface ServedKind {
  readonly kind: string;
  readonly readsData: boolean;
  readonly remote: boolean;
}

const registered = new Map<string, TaskKind>();

/** Registers a family in this thread; registering a family again is harmless, another family's kind is refused. */
export function registerTaskFamily(family: TaskFamily): void {
  for (const [kind, entry] of Object.entries(family)) {
    const known = registered.get(kind);
    if (known !== undefined && known !== entry) throw new Error(`Task kind '${kind}' is registered twice.`);
    registered.set(kind, entry as TaskKind);
  }
}

/** The registered kind `kind`, if any. */
export function taskKindOf(kind: string): TaskKind | undefined {
  return registered.get(kind);
}

/** Every kind registered in this thread. */
export function servedKinds(): ServedKind[] {
  return [...registered].map(([kind, entry]) => ({ kind, readsData: entry.readsData === true, remote: entry.remote !== false }));
}
