/**
 * `svc demo` (what `npm start` runs) as a user sees it: the compiled CLI started twice on port 0 over the fixture
 * datasets (linked into a temporary data directory, so its demo key file stays there). The first start creates the
 * demo key and precomputes the demo city (its annual map layers are served), the second prints the same key and
 * precomputes nothing; the banner names the docs at the port the server got, and that key works.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presetPlans } from '../../src/model/presets.js';
import { fixtureDataDir } from '../helpers/fixtures.js';
import { SVC } from './support/run-svc.js';

/** Starts `svc demo`, waits for its banner, asks `check` while it runs, then stops it with SIGTERM. */
async function demoRun(dataDir: string, check: (banner: string) => Promise<void>): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_LOG_LEVEL: 'warn', SVC_COMPUTE_THREADS: '1' };
  delete env.SVC_DOCS_URL;
  const child = spawn(process.execPath, [SVC, 'demo', '--data', dataDir, '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const ready = new Promise<void>((resolve, reject) => {
    const onData = () => {
      if (/Every endpoint, with examples: \S+\n/.test(out)) resolve();
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`svc demo exited (${code}) before its banner: ${out}${err}`)));
  });
  try {
    await ready;
    await check(out);
  } finally {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }
  return out;
}

describe('svc demo', () => {
  let dir: string;
  beforeAll(async () => {
    const fixture = await fixtureDataDir();
    dir = await mkdtemp(join(tmpdir(), 'svc-demo-'));
    for (const plan of presetPlans('demo')) await symlink(join(fixture, plan.id), join(dir, plan.id), 'dir');
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('creates the demo key once, prints it again on the next start, and points at its own docs', async () => {
    let key = '';
    let pageKeyFirst = '';
    const first = await demoRun(dir, async (banner) => {
      key = /^ {2}(svc_sk_[0-9A-Za-z]{32})$/m.exec(banner)![1]!;
      const base = /export BASE_URL=(http:\/\/127\.0\.0\.1:\d+)\/v1 KEY=/.exec(banner)![1]!;
      expect(base).not.toMatch(/:0$/);
      expect(banner).toContain(`Documentation: ${base}/docs\n`);
      expect(banner).toContain(`Every endpoint, with examples: ${base}/docs\n`);
      const res = await fetch(`${base}/v1/key`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ label: 'demo', products: ['*'] });
      expect((await fetch(`${base}/docs`)).status).toBe(200);
      // The map page, with a publishable key for this very origin in the fragment.
      const [, pageUrl, pageKey] = /^ {2}(http:\/\/127\.0\.0\.1:\d+\/map\/)#key=(svc_pk_[0-9A-Za-z]{32})$/m.exec(banner)!;
      expect(pageUrl).toBe(`${base}/map/`);
      expect((await fetch(pageUrl!)).status).toBe(200);
      const asPage = await fetch(`${base}/v1/map/brussels`, { headers: { authorization: `Bearer ${pageKey}`, origin: base } });
      expect(asPage.status).toBe(200);
      // The demo city was precomputed before serving, so its annual map layers are there.
      expect(Object.keys((await asPage.json() as { static: Record<string, unknown> }).static)).toEqual(['buildings', 'annual_air', 'annual_wind', 'annual_thermal']);
      const local = await fetch(`${base}/v1/map/brussels`, { headers: { authorization: `Bearer ${pageKey}`, origin: base.replace('127.0.0.1', 'localhost') } });
      expect(local.status).toBe(200);
      const elsewhere = await fetch(`${base}/v1/map/brussels`, { headers: { authorization: `Bearer ${pageKey}`, origin: 'http://example.org' } });
      expect(elsewhere.status).toBe(403);
      pageKeyFirst = pageKey!;
    });
    expect(first).toContain('created now');
    // No address index in the data directory: the banner says the gazetteer answers, and how to get the register.
    expect(first).toMatch(/^Geocoder: embedded gazetteer \(no address index in .*; `svc addresses import` makes one\)$/m);
    expect(first).toContain('Precomputing the annual figures of Brussels for its map layers (none yet; seconds)');
    expect((await stat(join(dir, 'demo-key'))).mode & 0o777).toBe(0o600);

    const second = await demoRun(dir, async () => undefined);
    expect(second).toContain(`  ${key}\n`);
    expect(second).not.toContain('Precomputing');
    expect(second).toContain(`/map/#key=${pageKeyFirst}\n`);
    expect(second).not.toContain('created now');
  });
});
