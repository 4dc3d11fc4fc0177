/**
 * End to end over a copy of the fixture datasets: damaged data is an error, never a different answer. A deleted or
 * truncated chunk answers 502 `upstream_error` whose detail names the dataset and the chunk and does not promise that a
 * retry helps; nothing of it is cached (a restored chunk answers at once); it is logged once. A dataset with corrupt
 * metadata no longer stops the service: the others keep serving and `/health` reports `data.status: degraded`.
 */
import { cp, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeDataset } from '../../src/compute/datasets/dataset-cache.js';
import { planSample } from '../../src/compute/planning/sample-plan.js';
import { hourlyChunkKey } from '../../src/store/zarr-metadata.js';
import { fixtureDataDir } from '../helpers/fixtures.js';
import { expectProblem, startE2eServer, type E2eServer } from './support/e2e-server.js';

const ADVICE = 'The stored data must be repaired by the operator; retrying will not help until then.';
const LOWRES_DETAIL = "Dataset 'belgium_lowres' is damaged: its consolidated metadata (.zmetadata) is corrupt (not JSON).";

let root: string;
let dataDir: string;
let e2e: E2eServer;
let key: string;
const logged: string[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-e2e-damaged-'));
  dataDir = join(root, 'data');
  await cp(await fixtureDataDir(), dataDir, { recursive: true });
  await writeFile(join(dataDir, 'belgium_lowres', '.zmetadata'), '{"metadata": {"no2/.zarray": ');
  e2e = await startE2eServer({ dataDir });
  key = e2e.issue({ label: 'e2e damaged', ratePerMin: 1000 });
  // The service logs through its (silent) application logger; watch what it would log from here on.
  e2e.server.damage.attachLogger({ error: (_obj, msg) => logged.push(msg) });
}, 120_000);
afterAll(async () => {
  await e2e?.close();
  await rm(root, { recursive: true, force: true });
});

const stats = (query: string) => e2e.get(`/v1/historical/stats?${query}`, key);

/** The no2 chunk a Brussels point query reads, from the (intact at first) copy. */
async function chunkOf(lat: number, lon: number): Promise<string> {
  const { chunks } = await planSample(await computeDataset(dataDir, 'brussels_extended'), { dataset: 'brussels_extended', lat, lon });
  expect(chunks).toHaveLength(1);
  return hourlyChunkKey('no2', chunks[0].chunkRow, chunks[0].chunkCol);
}

describe('a dataset with corrupt metadata (degraded mode)', () => {
  it('does not stop the service: health is ok and says the data are degraded, naming the dataset', async () => {
    const res = await e2e.get('/v1/health');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ service: 'svc-api', status: 'ok' });
    expect(res.json.data.status).toBe('degraded');
    expect(res.json.data.damaged).toEqual([{ dataset: 'belgium_lowres', problems: 1, detail: LOWRES_DETAIL, since: expect.any(String) }]);
  });

  it('keeps serving the other datasets, historical and live', async () => {
    expect((await stats('lat=50.8470&lon=4.3600')).json.meta.dataset).toBe('brussels_extended');
    const live = await e2e.get('/v1/realtime?lat=50.8470&lon=4.3600', key);
    expect(live.status, live.text).toBe(200);
  });

  it('answers the damaged dataset with 502 and a detail that does not promise a retry helps', async () => {
    // Liège, and Ghent, whose zone the nationwide dataset answers.
    for (const where of ['lat=50.6326&lon=5.5797', 'lat=51.0546&lon=3.7215', 'lat=51.0546&lon=3.7215']) {
      const body = expectProblem(await stats(where), 502, 'upstream_error');
      expect(body.detail).toBe(`${LOWRES_DETAIL} ${ADVICE}`);
      expect(body.detail).not.toMatch(/retrying is reasonable|\/tmp|svc-e2e/);
    }
    // Found at start-up (by the compute side and the embedded model service alike): logged before this watcher was
    // attached, and not again per request.
    expect(logged.filter((line) => line.includes("'belgium_lowres'"))).toEqual([]);
  });
});

describe('a chunk that disappears or is truncated while the service runs', () => {
  // Locations no other test asks for: an answer computed while the data were intact would (rightly) stay cached.
  const A = { lat: 50.8466, lon: 4.3519 };
  const B = { lat: 50.8441, lon: 4.3571 };
  const C = { lat: 50.8492, lon: 4.3480 };

  it('answers 502 naming the dataset and the chunk, every time, logs it once, and serves other chunks', async () => {
    const [a, b] = [await chunkOf(A.lat, A.lon), await chunkOf(B.lat, B.lon)];
    expect(b).not.toBe(a);
    await rm(join(dataDir, 'brussels_extended', a));
    for (let i = 0; i < 3; i++) {
      const res = await stats(`lat=${A.lat}&lon=${A.lon}`);
      const body = expectProblem(res, 502, 'upstream_error');
      expect(body.detail).toBe(`Dataset 'brussels_extended' is damaged: chunk ${a} is missing. ${ADVICE}`);
      expect(res.headers.get('x-cache')).toBeNull();
    }
    expect(logged.filter((line) => line.includes(`chunk ${a} is missing`))).toHaveLength(1);
    expect((await stats(`lat=${B.lat}&lon=${B.lon}`)).status).toBe(200);
    const health = (await e2e.get('/v1/health')).json;
    expect(health.data.damaged.map((d: { dataset: string }) => d.dataset)).toEqual(['belgium_lowres', 'brussels_extended']);
  });

  it('caches nothing of the failure: once the chunk is back the same query is computed (miss), then cached (hit)', async () => {
    const a = await chunkOf(A.lat, A.lon);
    await cp(join(await fixtureDataDir(), 'brussels_extended', a), join(dataDir, 'brussels_extended', a));
    const miss = await stats(`lat=${A.lat}&lon=${A.lon}`);
    expect(miss.status, miss.text).toBe(200);
    expect(miss.headers.get('x-cache')).toBe('miss');
    const hit = await stats(`lat=${A.lat}&lon=${A.lon}`);
    expect(hit.headers.get('x-cache')).toBe('hit');
    expect(hit.text).toBe(miss.text);
  });

  it('answers 502 for a truncated chunk, and for a chunk altered in place', async () => {
    const c = await chunkOf(C.lat, C.lon);
    const path = join(dataDir, 'brussels_extended', c);
    const original = await readFile(path);
    await truncate(path, 4096);
    const body = expectProblem(await stats(`lat=${C.lat}&lon=${C.lon}`), 502, 'upstream_error');
    expect(body.detail).toBe(`Dataset 'brussels_extended' is damaged: chunk ${c} has 4096 bytes where the manifest records ${original.length} (truncated or overwritten). ${ADVICE}`);
    const altered = Buffer.from(original);
    altered[altered.length >> 1] ^= 0x10;
    await writeFile(path, altered);
    const again = expectProblem(await stats(`lat=${C.lat}&lon=${C.lon}&radius=20`), 502, 'upstream_error');
    expect(again.detail).toBe(`Dataset 'brussels_extended' is damaged: chunk ${c} does not match its checksum (corrupted or changed after writing). ${ADVICE}`);
  });
});
