/**
 * Memory a structure really holds, measured: the growth of V8's heap and of array buffers (outside the heap) while
 * `fill` runs, each side taken after full garbage collections, so only what stays reachable counts. Used to check
 * the caches' weights (src/util/heap-size.ts) against reality within a factor; no timing involved.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
/** The `gc` function, exposed to this process now (a new context sees the flag). */
const gc = runInNewContext('gc') as () => void;

function held(): number {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** Bytes that stay reachable after `fill` ran (keep what it built reachable from outside until then). */
export function heapGrowth(fill: () => void): number {
  const before = held();
  fill();
  return held() - before;
}
