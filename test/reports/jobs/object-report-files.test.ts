/**
 * Report files in the JetStream object store, over a real nats-server: the report files contract
 * (test/contracts/report-files-contract.ts), and what only a shared store does: a file one node wrote is served by
 * another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterLink } from '../../../src/cluster/nats-connection.js';
import { ObjectReportFiles } from '../../../src/reports/jobs/object-report-files.js';
import { startLinks } from '../../cluster/support/links.js';
import { startNatsServer, type TestNatsServer } from '../../cluster/support/nats-server.js';
import { describeReportFiles } from '../../contracts/report-files-contract.js';

let nats: TestNatsServer;
let links: ClusterLink[];

beforeAll(async () => {
  nats = await startNatsServer();
  links = await startLinks(nats.url, 2);
});
afterAll(async () => {
  await Promise.all(links.map((l) => l.close()));
  await nats.dispose();
});

describeReportFiles('ObjectReportFiles', () => ({ files: new ObjectReportFiles(links[0]!) }));

describe('ObjectReportFiles across nodes', () => {
  it('serves a file one node wrote from another, and a removal on one is seen by the other', async () => {
    const id = 'abcdef01-0000-4000-8000-000000000001';
    await new ObjectReportFiles(links[0]!).write(id, 'html', new TextEncoder().encode('<!doctype html>'));
    const other = new ObjectReportFiles(links[1]!);
    expect((await other.open(id, 'html'))?.size).toBe(15);
    await new ObjectReportFiles(links[0]!).remove(id);
    expect(await other.open(id, 'html')).toBeUndefined();
  });
});
