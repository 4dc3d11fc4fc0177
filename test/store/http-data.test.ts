/**
 * Datasets read over HTTP from a static file server (node:http serving the fixture directory): the same answers as
 * from the directory (statistics, split queries, precompute rows, surroundings), through a local pool and through a
 * NATS worker given `--data URL`; the chunk manifest's size and CRC-32 checks apply to what the server sends; 404 is a
 * missing chunk; server and network faults are errors naming the chunk or file, not damage.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNatsCompute } from '../../src/cluster/nats-compute.js';
import { ClusterLink } from '../../src/cluster/nats-connection.js';
import { NatsTaskQueue } from '../../src/cluster/task-queue.js';
import { startWorkerNode, type WorkerNode } from '../../src/cluster/worker-process.js';
import type { StatsComputation, StatsRequest } from '../../src/compute/compute-types.js';
import { computeDataset } from '../../src/compute/datasets/dataset-cache.js';
import { createLocalCompute } from '../../src/compute/local-compute.js';
import { planSample } from '../../src/compute/planning/sample-plan.js';
import { DamagedDataError, DatasetError } from '../../src/errors.js';
import { locationJoin } from '../../src/store/data-location.js';
import { hourlyChunkKey } from '../../src/store/zarr-metadata.js';
import { startNatsServer, type TestNatsServer } from '../cluster/support/nats-server.js';
import { fixtureDataDir } from '../helpers/fixtures.js';
import type { PlannedCompute } from '../../src/compute/planned-compute.js';

/** How the test server answers one path instead of serving the file. */
type Fault = 'status-500' | 'status-404' | 'truncate' | 'flip';

let dataDir: string;
let server: Server;
let base: string;
const faults = new Map<string, Fault>();
let requests = 0;

/** A static file server over `root`, with per-path faults. */
function staticServer(root: string): Server {
  return createServer((req, res) => {
    requests++;
    const rel = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
    const fault = faults.get(rel);
    const file = join(root, normalize(rel));
    if (!file.startsWith(root) || fault === 'status-404') return void res.writeHead(404).end();
    if (fault === 'status-500') return void res.writeHead(500).end('boom');
    stat(file).then((info) => {
      if (!info.isFile()) return void res.writeHead(404).end();
      if (fault === 'truncate' || fault === 'flip') {
        const chunks: Buffer[] = [];
        createReadStream(file).on('data', (c) => chunks.push(c as Buffer)).on('end', () => {
          const all = Buffer.concat(chunks);
          if (fault === 'flip') all[all.length >> 1] ^= 0xff;
          res.writeHead(200).end(fault === 'truncate' ? all.subarray(0, all.length - 5) : all);
        });
        return;
      }
      res.writeHead(200, { 'content-length': info.size });
      createReadStream(file).pipe(res);
    }, () => res.writeHead(404).end());
  });
}

function timeless(c: StatsComputation): Omit<StatsComputation, 'generated_utc'> {
  const { generated_utc: _t, ...rest } = c;
  return rest;
}

const POINT: StatsRequest = { dataset: 'brussels_extended', lat: 50.8467, lon: 4.3525 };
const RADIUS: StatsRequest = { dataset: 'brussels_extended', lat: 50.8462, lon: 4.354, radius_m: 50 };

beforeAll(async () => {
  dataDir = await fixtureDataDir();
  server = staticServer(dataDir);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/data`;
  // Served under /data/: the URL's path is kept when chunk keys are joined to it.
  server.removeAllListeners('request');
  const inner = staticServer(dataDir);
  server.on('request', (req, res) => {
    if (!req.url!.startsWith('/data/')) return void res.writeHead(404).end();
    req.url = req.url!.slice('/data'.length);
    inner.emit('request', req, res);
  });
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

describe('a local pool over a data URL', () => {
  let fromDir: PlannedCompute;
  let fromUrl: PlannedCompute;
  beforeAll(async () => {
    fromDir = await createLocalCompute({ dataDir, threads: 2 });
    fromUrl = await createLocalCompute({ dataDir: `${base}/`, threads: 2, splitMinChunks: 2 });
  });
  afterAll(async () => {
    await fromDir?.close();
    await fromUrl?.close();
  });

  it('answers exactly as from the directory: point, 50 m radius (split), nationwide, surroundings, a precompute row', async () => {
    const before = requests;
    for (const request of [POINT, RADIUS, { dataset: 'belgium_lowres', lat: 50.6326, lon: 5.5797 }]) {
      expect(timeless(await fromUrl.computeStats(request))).toEqual(timeless(await fromDir.computeStats(request)));
    }
    expect(await fromUrl.surroundings(RADIUS)).toEqual(await fromDir.surroundings(RADIUS));
    const [a, b] = await Promise.all([fromDir.precomputeRow('brussels_extended', 2), fromUrl.precomputeRow('brussels_extended', 2)]);
    const bytes = (grid: Float32Array) => new Uint8Array(grid.buffer, grid.byteOffset, grid.byteLength);
    for (const [name, grid] of Object.entries(a.grids)) expect(bytes(b.grids[name]!), name).toEqual(bytes(grid));
    expect(requests).toBeGreaterThan(before);
    expect(await fromUrl.datasetVersion('brussels_extended')).toBe(await fromDir.datasetVersion('brussels_extended'));
  });

  describe('checks what the server sends against the chunk manifest', () => {
    const at = { dataset: 'brussels_extended', lat: 50.8449, lon: 4.3489 };
    let key: string;
    beforeAll(async () => {
      const { chunks } = await planSample(await computeDataset(dataDir, 'brussels_extended'), at);
      key = `/brussels_extended/${hourlyChunkKey('ucomfort', chunks[0]!.chunkRow, chunks[0]!.chunkCol)}`;
    });
    const cases: [Fault, RegExp, typeof DamagedDataError | typeof DatasetError][] = [
      ['truncate', /chunk ucomfort\/\S+ has \d+ bytes where the manifest records \d+/, DamagedDataError],
      ['flip', /does not match its checksum/, DamagedDataError],
      ['status-404', /chunk ucomfort\/\S+ is missing/, DamagedDataError],
      ['status-500', /chunk ucomfort\/\S+ cannot be read from http:\/\/127\.0\.0\.1:\d+\/data\/brussels_extended \(HTTP 500\)/, DatasetError],
    ];
    for (const [fault, message, type] of cases) {
      it(`${fault}: fails with a ${type.name} naming the chunk`, async () => {
        faults.set(key, fault);
        try {
          const err = await fromUrl.computeStats(at).catch((e: unknown) => e);
          expect(err).toBeInstanceOf(type);
          expect((err as Error).message).toMatch(message);
        } finally {
          faults.delete(key);
        }
        expect(timeless(await fromUrl.computeStats(at))).toEqual(timeless(await fromDir.computeStats(at)));
      });
    }
  });

  it('answers a URL with no dataset, and an unreachable server, with a DatasetError naming it', async () => {
    const nowhere = await createLocalCompute({ dataDir: `${base}/missing`, threads: 1 });
    // A port nothing listens on: one the system just gave out and took back.
    const spare = createServer();
    await new Promise<void>((r) => spare.listen(0, '127.0.0.1', r));
    const port = (spare.address() as AddressInfo).port;
    await new Promise((r) => spare.close(r));
    const closed = await createLocalCompute({ dataDir: `http://127.0.0.1:${port}/data`, threads: 1 });
    try {
      await expect(nowhere.computeStats(POINT)).rejects.toThrow(/Dataset not found: http:\/\/127\.0\.0\.1:\d+\/data\/missing\/brussels_extended\/\.zmetadata does not exist \(HTTP 404\)/);
      const err = await closed.computeStats(POINT).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DatasetError);
      expect((err as Error).message).toMatch(/brussels_extended\/\.zmetadata cannot be read \(ECONNREFUSED\)/);
    } finally {
      await nowhere.close();
      await closed.close();
    }
  });

  it('joins locations as URL segments or paths', () => {
    expect(locationJoin('http://h:1/a/', 'ds', '/no2/0/1/2')).toBe('http://h:1/a/ds/no2/0/1/2');
    expect(locationJoin('/srv/data', 'ds', '.zmetadata')).toBe('/srv/data/ds/.zmetadata');
  });
});

describe('a NATS worker with --data URL', () => {
  let nats: TestNatsServer;
  let worker: WorkerNode;
  let link: ClusterLink;
  let queue: NatsTaskQueue;
  let local: PlannedCompute;
  beforeAll(async () => {
    nats = await startNatsServer();
    worker = await startWorkerNode({ natsUrl: nats.url, dataDir: base, threads: 1, ackWaitMs: 5_000, maxDeliver: 3 });
    link = ClusterLink.start({ url: nats.url, name: 'test-api', ackWaitMs: 5_000, maxDeliver: 3 });
    await link.ready();
    queue = new NatsTaskQueue({ link, defaultTimeoutMs: 60_000 });
    local = await createLocalCompute({ dataDir, threads: 1 });
  }, 30_000);
  afterAll(async () => {
    queue?.close();
    await link?.close();
    await worker?.stop();
    await local?.close();
    await nats?.dispose();
  });

  it('answers exactly as the local pool over the directory', async () => {
    const cluster = createNatsCompute({ queue, dataDir, split: 2, splitMinChunks: 2 });
    for (const request of [POINT, RADIUS]) {
      expect(timeless(await cluster.computeStats(request))).toEqual(timeless(await local.computeStats(request)));
    }
  });
});
