import { afterEach, describe, expect, it } from 'vitest';
import { ServiceError, UpstreamError, ValidationError } from '../../src/errors.js';
import { httpUpstream, normaliseBaseUrl } from '../../src/upstream/http-upstream.js';
import { deadUrl, jsonHandler, startTestServer, type TestServer } from './test-servers.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('httpUpstream', () => {
  it('returns every status as a value, with the whole body and lower-cased headers', async () => {
    for (const status of [200, 404, 503]) {
      server = await startTestServer(jsonHandler(status, { status }));
      const up = httpUpstream({ name: 'test service', baseUrl: server.url });
      const res = await up.request({ method: 'GET', path: '/x' });
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toBe('application/json');
      expect(JSON.parse(Buffer.from(res.body).toString())).toEqual({ status });
      await server.close();
      server = undefined;
    }
  });

  it('keeps a base path prefix, encodes query values and leaves out undefined ones', async () => {
    server = await startTestServer(jsonHandler(200));
    const up = httpUpstream({ name: 'test service', baseUrl: `${server.url}/api/v2/` });
    await up.request({ method: 'GET', path: '/datasets/a%20b/live', query: { lat: 50.5, q: 'x&y=1', radius: undefined } });
    expect(server.requests[0].url).toBe('/api/v2/datasets/a%20b/live?lat=50.5&q=x%26y%3D1');
  });

  it('turns a refused connection into UpstreamError naming the service, not its address', async () => {
    const url = await deadUrl();
    const up = httpUpstream({ name: 'test service', baseUrl: url });
    const err = await up.request({ method: 'GET', path: '/' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as ServiceError).code).toBe('upstream_error');
    expect((err as Error).message).toContain('test service');
    expect((err as Error).message).not.toContain('127.0.0.1');
  });

  it('refuses bodies over the cap, declared or streamed', async () => {
    server = await startTestServer((req, res) => {
      if (req.url === '/declared') {
        res.writeHead(200, { 'content-length': '2048' });
        res.end(Buffer.alloc(2048));
      } else {
        res.writeHead(200);
        for (let i = 0; i < 8; i++) res.write(Buffer.alloc(512));
        res.end();
      }
    });
    const up = httpUpstream({ name: 'test service', baseUrl: server.url, maxBodyBytes: 1024 });
    for (const path of ['/declared', '/streamed']) {
      await expect(up.request({ method: 'GET', path })).rejects.toThrow(/larger than 1024 bytes/);
    }
  });

  it('rejects with the reason of an aborted signal', async () => {
    server = await startTestServer(() => undefined);
    const up = httpUpstream({ name: 'test service', baseUrl: server.url });
    const controller = new AbortController();
    const call = up.request({ method: 'GET', path: '/' }, controller.signal);
    await server.received(1);
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
  });

  it('validates the base URL and paths', async () => {
    expect(() => normaliseBaseUrl('x', 'ftp://host')).toThrow(ValidationError);
    expect(() => normaliseBaseUrl('x', 'http://host/?a=1')).toThrow(ValidationError);
    expect(() => normaliseBaseUrl('x', 'not a url')).toThrow(ValidationError);
    expect(normaliseBaseUrl('x', 'http://host:1/p//')).toBe('http://host:1/p');
    const up = httpUpstream({ name: 'x', baseUrl: 'http://127.0.0.1:1' });
    await expect(up.request({ method: 'GET', path: 'relative' })).rejects.toThrow(ValidationError);
  });
});
