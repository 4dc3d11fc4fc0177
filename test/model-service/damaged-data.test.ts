/**
 * The model service with damaged datasets (degraded mode): a dataset whose metadata cannot be read is not served but
 * no longer stops the service; its requests, and requests meeting a damaged chunk, answer 409 `dataset_damaged`, which
 * the API's client turns into a `DamagedDataError`; `/health` lists the damage; each problem is logged once.
 */
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DamagedDataError } from '../../src/errors.js';
import { createModelServiceClient } from '../../src/upstream/model-service-client.js';
import { startModelService } from '../../src/model-service/start.js';
import type { ModelErrorBody, ModelHealth } from '../../src/upstream/model-service-contract.js';
import { createUpstreamClient } from '../../src/upstream/upstream-client.js';
import { ManualClock } from '../services/support/manual-clock.js';
import { cellLatLon, syntheticDataDir } from './synthetic-city.js';

const NOW = Date.parse('2025-07-15T12:30:00Z');
let made: { dataDir: string; cleanup: () => Promise<void> };
let running: Awaited<ReturnType<typeof startModelService>>;
const logged: string[] = [];

beforeAll(async () => {
  made = await syntheticDataDir();
  const intact = join(made.dataDir, 'brussels_extended');
  // ghent: corrupt consolidated metadata; antwerp: a directory where .zmetadata should be (not "no dataset").
  await cp(intact, join(made.dataDir, 'ghent'), { recursive: true });
  await writeFile(join(made.dataDir, 'ghent', '.zmetadata'), '{"metadata": {"truncated');
  await cp(intact, join(made.dataDir, 'antwerp'), { recursive: true });
  await rm(join(made.dataDir, 'antwerp', '.zmetadata'));
  await mkdir(join(made.dataDir, 'antwerp', '.zmetadata'));
  running = await startModelService({ dataDir: made.dataDir, host: '127.0.0.1', port: 0, seed: 1, now: () => NOW, log: (m) => logged.push(m) });
});
afterAll(async () => {
  await running?.close();
  await made.cleanup();
});

const get = (path: string) => fetch(`${running.url}${path}`);
const { lat, lon } = cellLatLon(2, 2);

describe('model service with damaged datasets', () => {
  it('starts and serves the intact dataset; the damaged ones are listed in health and logged once each', async () => {
    expect(running.datasets).toEqual(['brussels_extended']);
    const health = await (await get('/health')).json() as ModelHealth;
    expect(health).toMatchObject({ service: 'svc-model-service', status: 'ok', datasets: ['brussels_extended'] });
    expect(health.damaged).toEqual([
      { dataset: 'antwerp', problems: 1, detail: "Dataset 'antwerp' is damaged: its consolidated metadata (.zmetadata) cannot be read (EISDIR).", since: new Date(NOW).toISOString() },
      { dataset: 'ghent', problems: 1, detail: "Dataset 'ghent' is damaged: its consolidated metadata (.zmetadata) is corrupt (not JSON).", since: new Date(NOW).toISOString() },
    ]);
    expect(logged.filter((m) => m.includes("'ghent'"))).toHaveLength(1);
    expect(logged.filter((m) => m.includes("'antwerp'"))).toHaveLength(1);
    const live = await get(`/datasets/brussels_extended/live?lat=${lat}&lon=${lon}&hours=2`);
    expect(live.status).toBe(200);
  });

  it('answers requests for a damaged dataset with 409 dataset_damaged, without logging again', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await get(`/datasets/ghent/live?lat=${lat}&lon=${lon}`);
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual({
        code: 'dataset_damaged', status: 409, detail: "Dataset 'ghent' is damaged: its consolidated metadata (.zmetadata) is corrupt (not JSON).",
      });
    }
    expect(logged.filter((m) => m.includes("'ghent'"))).toHaveLength(1);
  });

  it('answers 409 for a damaged chunk of a served dataset, and the client raises DamagedDataError (no retry)', async () => {
    // Chunk (1, 1), which no earlier request read (decoded chunks are kept in memory once read intact).
    const other = cellLatLon(12, 12);
    await rm(join(made.dataDir, 'brussels_extended', 'no2/0/1/1'));
    const res = await get(`/datasets/brussels_extended/live?lat=${other.lat}&lon=${other.lon}&hours=2`);
    expect(res.status).toBe(409);
    expect((await res.json() as ModelErrorBody).detail).toBe("Dataset 'brussels_extended' is damaged: chunk no2/0/1/1 is missing.");
    const upstream = createUpstreamClient({ name: 'model service', baseUrl: running.url, timeoutMs: 5_000, clock: new ManualClock(NOW) });
    const client = createModelServiceClient(upstream);
    for (let i = 0; i < 8; i++) {
      const err = await client.live('brussels_extended', other).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(DamagedDataError);
      expect(err).toMatchObject({ message: "Dataset 'brussels_extended' is damaged: chunk no2/0/1/1 is missing.", extra: { dataset: 'brussels_extended' } });
    }
    // A definitive answer about one dataset: the breaker shared by all datasets stays closed.
    expect(upstream.breaker.state).toBe('closed');
    expect(logged.filter((m) => m.includes('no2/0/1/1'))).toHaveLength(1);
    const health = await (await get('/health')).json() as ModelHealth;
    expect(health.damaged.map((d) => d.dataset)).toEqual(['antwerp', 'brussels_extended', 'ghent']);
  });
});
