/**
 * Timing helpers for benchmarks on a shared machine. Every pass is measured twice: wall-clock time and the CPU time
 * the process spent (user + system, all threads, from `process.cpuUsage`). On a busy machine wall time grows with
 * other processes' load while CPU time stays close to the work done, so "per core" speeds are computed from CPU time.
 */
import { performance } from 'node:perf_hooks';

/** A repeatable unit of work and its measurements (milliseconds). */
export interface TimedPass {
  readonly pass: () => Promise<void>;
  readonly wallMs: number[];
  readonly cpuMs: number[];
}

/** Wraps a pass with empty measurement lists. */
export function timedPass(pass: () => Promise<void>): TimedPass {
  return { pass, wallMs: [], cpuMs: [] };
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The value at fraction `p` (0–1) of a non-empty list, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
}

/** Decimal megabytes per second. */
export function mbPerSecond(bytes: number, ms: number): number {
  return bytes / 1e6 / (ms / 1e3);
}

/** Runs `fn` once and returns its wall and CPU milliseconds. */
export async function measureOnce(fn: () => Promise<void>): Promise<{ wallMs: number; cpuMs: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1e3 };
}

/**
 * One warm-up round, then `rounds` measured rounds. Each round runs every pass once, in turn, so load from other
 * processes falls on all passes alike rather than on whichever ran at a bad moment.
 */
export async function runRounds(passes: readonly TimedPass[], rounds: number): Promise<void> {
  for (let round = 0; round <= rounds; round++) {
    for (const p of passes) {
      const { wallMs, cpuMs } = await measureOnce(p.pass);
      if (round === 0) continue;
      p.wallMs.push(wallMs);
      p.cpuMs.push(cpuMs);
    }
  }
}
