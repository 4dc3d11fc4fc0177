/**
 * The storage seam's two back ends against one contract (test/contracts/data-location-contract.ts): a directory, and the
 * same files served over HTTP by a static file server (node:http) that answers 500 for one path.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataLocation } from '../../src/store/data-location.js';
import { describeDataLocation } from '../contracts/data-location-contract.js';

/** Writes `files` under a fresh temporary directory; returns it. */
async function writeTree(files: Readonly<Record<string, Uint8Array>>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-location-'));
  for (const [path, bytes] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), bytes);
  }
  return dir;
}

describeDataLocation('file', async (files) => {
  const dir = await writeTree(files);
  // A directory read as a file fails with EISDIR: neither absence nor data.
  return { root: dataLocation(dir), faulty: dataLocation(join(dir, 'ds')), lists: true, close: () => rm(dir, { recursive: true, force: true }) };
});

describeDataLocation('http', async (files) => {
  const dir = await writeTree(files);
  const server = createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
    if (rel === '/broken') return void res.writeHead(500).end('boom');
    readFile(join(dir, normalize(rel))).then((bytes) => res.writeHead(200).end(bytes), () => res.writeHead(404).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    // The trailing slash is the decider's to drop.
    root: dataLocation(`${base}/`), faulty: dataLocation(`${base}/broken`), lists: false,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe('dataLocation (the one place that decides)', () => {
  it('takes http(s) URLs for the HTTP back end and every other string for a path', () => {
    for (const url of ['http://host/data', 'HTTPS://host/data/', 'https://host/a//']) {
      const location = dataLocation(url);
      expect(location.failureIsDamage).toBe(false);
      expect(location.href).toBe(url.replace(/\/+$/, ''));
      expect(location.absolute()).toBe(location);
    }
    for (const path of ['data', '/srv/data', './http-cache', 'ftp://not-served']) {
      const location = dataLocation(path);
      expect(location.failureIsDamage).toBe(true);
      expect(location.href).toBe(path);
      expect(location.absolute().href).toBe(resolve(path));
    }
  });
});
