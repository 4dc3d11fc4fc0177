/**
 * Closing a link while NATS is down ends its client connection, so a node that shuts down during an outage exits
 * instead of reconnecting forever in the background.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ClusterLink } from '../../src/cluster/nats-connection.js';
import { startNatsServer, type TestNatsServer } from './support/nats-server.js';
import { TEST_LINK_OPTIONS, until } from './support/links.js';

let nats: TestNatsServer;
beforeAll(async () => {
  nats = await startNatsServer();
});
afterAll(async () => {
  await nats.dispose();
});

it('closes a connection that is reconnecting', async () => {
  const link = ClusterLink.start({ url: nats.url, name: 'closing', ...TEST_LINK_OPTIONS });
  const { nc } = await link.ready();
  await nats.stop();
  await until(() => link.current() === undefined);
  await link.close();
  expect(nc.isClosed()).toBe(true);
  await nats.start();
});
