/**
 * Piscina entry of a compute thread. The pool passes `{ allowFaultInjection }` as workerData; tasks and replies follow
 * src/compute/protocol.ts.
 */
import { workerData } from 'node:worker_threads';
import { allowFaults, handleComputeTask } from '../src/compute/worker-handler.js';

allowFaults(Boolean((workerData as { allowFaultInjection?: boolean } | undefined)?.allowFaultInjection));

export default handleComputeTask;
