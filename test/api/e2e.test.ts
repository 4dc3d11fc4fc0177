/** End to end through a real listening server (127.0.0.1, ephemeral port) with fetch and a raw socket. */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './support/harness.js';
import type { Problem } from '../../src/api/problems.js';
import { UUID_V4 } from './support/problem.js';

let h: Harness;
let base: string;
beforeAll(async () => {
  h = await harness();
  base = await h.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => h.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });

describe('over HTTP', () => {
  it('serves health with a request id', async () => {
    const res = await get('/v1/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(UUID_V4);
    expect(await res.json()).toMatchObject({ service: 'svc-api', status: 'ok' });
  });

  it('revalidates scales with the ETag: 304 and an empty body', async () => {
    const first = await get('/v1/scales');
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    const again = await get('/v1/scales', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('authenticates, limits and answers statistics', async () => {
    const key = h.issue({ ratePerMin: 3 });
    const unauthenticated = await get('/v1/historical/stats?lat=50.8466&lon=4.3519');
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await unauthenticated.json() as Problem).request_id).toBe(unauthenticated.headers.get('x-request-id'));

    const miss = await get('/v1/historical/stats?lat=50.8466&lon=4.3519', { authorization: `Bearer ${key}` });
    expect(miss.status).toBe(200);
    expect(miss.headers.get('x-cache')).toBe('miss');
    expect(miss.headers.get('x-ratelimit-remaining')).toBe('2');
    expect((await miss.json() as { meta: { dataset: string } }).meta.dataset).toBe('brussels_extended');

    const hit = await get('/v1/historical/stats?lat=50.8466&lon=4.3519&metrics=air', { 'x-api-key': key });
    expect(hit.headers.get('x-cache')).toBe('hit');
    await hit.arrayBuffer();

    await (await get('/v1/key', { 'x-api-key': key })).arrayBuffer();
    const limited = await get('/v1/key', { 'x-api-key': key });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
    expect(limited.headers.get('x-ratelimit-reset')).toBe('1741608060');
    expect((await limited.json() as Problem).code).toBe('rate_limited');
  });

  it('answers a browser preflight without a key', async () => {
    const res = await fetch(`${base}/v1/geocode?q=x`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.org', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers malformed HTTP with a problem document', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const url = new URL(base);
      const socket = connect(Number(url.port), url.hostname, () => socket.write('GARBAGE\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toContain('application/problem+json');
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ code: 'validation_error', status: 400 });
    expect(raw).toContain(`X-Request-Id: ${body.request_id}`);
  });

  it('is still serving', async () => {
    expect((await get('/v1/health')).status).toBe(200);
  });
});
