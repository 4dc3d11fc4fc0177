/** Links of several "nodes" of one test process to one test nats-server. */
import { ClusterLink } from '../../../src/cluster/nats-connection.js';

/** Short limits so redeliveries and reconnections happen within a test. */
export const TEST_LINK_OPTIONS = { ackWaitMs: 3_000, maxDeliver: 5, retryMs: 100 } as const;

/** Starts `n` links (one per simulated node) and waits until each is connected. */
export async function startLinks(url: string, n: number, prefix = 'node'): Promise<ClusterLink[]> {
  const links = Array.from({ length: n }, (_, i) => ClusterLink.start({ url, name: `${prefix}-${i}`, ...TEST_LINK_OPTIONS }));
  await Promise.all(links.map((l) => l.ready()));
  return links;
}

/** Waits until `check` holds, polling (no timing assertion: the test time-out bounds it). */
export async function until(check: () => boolean | Promise<boolean>, pauseMs = 20): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, pauseMs));
}
