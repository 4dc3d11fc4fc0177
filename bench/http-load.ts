/**
 * Load generation for the HTTP benchmark: autocannon's programmatic API (loaded through `require`, it ships no types,
 * so the part used here is typed below) and the server child processes (bench/http-child.ts) it is aimed at.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../src/util/paths.js';
import type { ChildCommand, ChildCpu, ChildKey, ChildReady } from './http-child.js';

/** The histogram fields of an autocannon result that are read here. */
interface Histogram {
  readonly average: number;
  readonly p50: number;
  readonly p99: number;
  readonly total: number;
}

/** The part of an autocannon result that is read here. */
interface AutocannonResult {
  readonly duration: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly statusCodeStats: Readonly<Record<string, { readonly count: number }>>;
  readonly latency: Histogram;
  readonly requests: Histogram;
}

type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** One load run against one URL. */
export interface LoadSpec {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Every response must have this status; otherwise the run throws (it would measure something else). */
  readonly status: number;
  readonly connections: number;
  readonly seconds: number;
}

/** The figures of one run: throughput, latency percentiles and how many responses came back. */
export interface LoadResult {
  /** Mean of autocannon's per-second request counts. */
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requests: number;
  readonly seconds: number;
}

/** Runs autocannon once; throws when any response had another status or a connection failed. */
export async function load(spec: LoadSpec): Promise<LoadResult> {
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.seconds,
    headers: { ...spec.headers },
  });
  const statuses = Object.keys(result.statusCodeStats);
  if (result.errors > 0 || result.timeouts > 0 || statuses.some((s) => Number(s) !== spec.status)) {
    const limited = statuses.includes('429') ? ' (429: the key reached its per-minute limit)' : '';
    throw new Error(
      `Load on ${spec.url} expected only ${spec.status}s; got statuses ${JSON.stringify(result.statusCodeStats)}${limited}, ` +
        `${result.errors} errors, ${result.timeouts} time-outs.`,
    );
  }
  return {
    rps: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    seconds: result.duration,
  };
}

/** A running server child process. */
export interface ServerChild {
  readonly url: string;
  /** The child's process id (its memory is read from /proc). */
  readonly pid: number;
  /** A freshly issued API key (the service child only). */
  newKey(): Promise<string>;
  /** The child's CPU time so far (all threads), seconds. */
  cpuSeconds(): Promise<number>;
  /** Asks the child to shut down gracefully and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Forks dist/bench/http-child.js with `args` (same Node, same flags as this process plus `execArgv`, e.g.
 * `--cpu-prof`) and waits until it listens.
 */
export async function startChild(args: readonly string[], execArgv: readonly string[] = []): Promise<ServerChild> {
  const child: ChildProcess = fork(join(PROJECT_ROOT, 'dist', 'bench', 'http-child.js'), [...args], {
    execArgv: [...process.execArgv, ...execArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<ChildReady>((resolve, reject) => {
    child.once('message', (message) => resolve(message as ChildReady));
    child.once('exit', (code) => reject(new Error(`The ${args[0]} server exited (code ${String(code)}) before listening.`)));
  });
  const send = (command: ChildCommand) => child.send(command);
  return {
    url: ready.url,
    pid: child.pid!,
    async newKey() {
      const reply = once(child, 'message');
      send('key');
      const [message] = (await reply) as [ChildKey];
      return message.key;
    },
    async cpuSeconds() {
      const reply = once(child, 'message');
      send('cpu');
      const [message] = (await reply) as [ChildCpu];
      return message.micros / 1e6;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      send('stop');
      await exited;
    },
  };
}
