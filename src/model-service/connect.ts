/**
 * How the API reaches the model service, chosen by configuration: with a URL (`SVC_MODEL_SERVICE_URL`) it talks to
 * that service; without one (the embedded default) it starts the stand-in in-process on a loopback port over the
 * configured data directory and talks to it the same way, so both paths exercise the same HTTP contract, time-outs,
 * retries and breaker.
 */
import type { DamageRegistry } from '../store/damage-registry.js';
import { createUpstreamClient, type UpstreamClient } from '../upstream/upstream-client.js';
import type { UpstreamClock } from '../upstream/upstream-types.js';
import { createModelServiceClient, type ModelServiceClient } from '../upstream/model-service-client.js';
import { startModelService } from './start.js';

/** Seed of the embedded model service's perturbation (the `svc model-service` default too). */
export const DEFAULT_MODEL_SEED = 1;

/** Options of `connectModelService`. */
export interface ConnectOptions {
  /** Base URL of a separate model service; undefined starts the embedded one. */
  readonly url: string | undefined;
  /** Datasets of the embedded service. */
  readonly dataDir: string;
  /** Deadline of one call, retries included, milliseconds. */
  readonly timeoutMs: number;
  /** Drives the client's timers and, when embedded, the model's live hour. */
  readonly clock: UpstreamClock;
  readonly seed?: number;
  /** Budgets of the embedded service's decoded-chunk and slice caches, bytes (its defaults when omitted). */
  readonly chunkCacheBytes?: number;
  readonly sliceCacheBytes?: number;
  /** Where the embedded service records damaged datasets (the API's registry, so each problem is logged once). */
  readonly damage?: DamageRegistry;
}

/** A connected model service. */
export interface ModelServiceConnection {
  readonly client: ModelServiceClient;
  readonly upstream: UpstreamClient;
  /** Where it is reached (the embedded service's loopback URL when embedded). */
  readonly url: string;
  readonly embedded: boolean;
  /** Stops the embedded service, if any. */
  close(): Promise<void>;
}

/** Connects to the configured model service, starting the embedded one when no URL is configured. */
export async function connectModelService(options: ConnectOptions): Promise<ModelServiceConnection> {
  const embedded = options.url === undefined
    ? await startModelService({
      dataDir: options.dataDir, host: '127.0.0.1', port: 0, seed: options.seed ?? DEFAULT_MODEL_SEED, now: () => options.clock.now(),
      damage: options.damage,
      chunkCacheBytes: options.chunkCacheBytes,
      sliceCacheBytes: options.sliceCacheBytes,
    })
    : undefined;
  const url = embedded?.url ?? options.url!;
  const upstream = createUpstreamClient({ name: 'model service', baseUrl: url, timeoutMs: options.timeoutMs, clock: options.clock });
  return {
    client: createModelServiceClient(upstream),
    upstream,
    url,
    embedded: embedded !== undefined,
    close: async () => {
      await embedded?.close();
    },
  };
}
