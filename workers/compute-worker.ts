/**
 * Piscina entry of a compute thread: registers every task family (the statistics family registers itself with the
 * handler) and answers tasks with `handleComputeTask`. The pool passes `{ allowFaultInjection }` as workerData; tasks
 * are defined with `defineTask` (src/compute/tasks/task-definition.ts) in each family's own module, and their types
 * shared through src/compute/tasks/protocol.ts for the statistics family. A new family is one line here.
 */
import { workerData } from 'node:worker_threads';
import { registerTaskFamily } from '../src/compute/tasks/task-registry.js';
import { allowFaults, handleComputeTask } from '../src/compute/tasks/worker-handler.js';
import { MAP_TASKS } from '../src/map/map-tasks.js';
import { AREA_TASKS } from '../src/area/area-figures-task.js';

registerTaskFamily(MAP_TASKS);
registerTaskFamily(AREA_TASKS);
allowFaults(Boolean((workerData as { allowFaultInjection?: boolean } | undefined)?.allowFaultInjection));

export default handleComputeTask;
