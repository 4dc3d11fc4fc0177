/**
 * A minimal worker for tests: pulls tasks from the workers' durable consumer, runs the handler registered for the
 * task's kind (`svc.task.<kind>`) and acknowledges it as the task contract says (a result or a `ServiceError` → ack;
 * any other rejection → handed back with `nak`). It keeps pulling across NATS restarts. The real worker loop is
 * `svc worker`; this one lets the report handler be tested against the real durable consumer.
 */
import type { JsMsg } from '@nats-io/jetstream';
import { TASK_STREAM, TASK_SUBJECT_PREFIX, WORKER_CONSUMER } from '../../../src/cluster/names.js';
import type { ClusterLink } from '../../../src/cluster/nats-connection.js';
import type { TaskHandler } from '../../../src/cluster/task-types.js';
import { ServiceError } from '../../../src/errors.js';

/** A running test consumer. */
export interface TestConsumer {
  /** Tasks run to an acknowledgement, by kind. */
  readonly acked: Map<string, number>;
  /** Tasks handed back. */
  handedBack: number;
  stop(): Promise<void>;
}

/** Starts pulling with at most `concurrency` tasks in hand. */
export function startTestConsumer(link: ClusterLink, handlers: Record<string, TaskHandler>, options: { workerId: string; concurrency?: number; maxDeliver?: number }): TestConsumer {
  const controller = new AbortController();
  const inHand = new Set<Promise<void>>();
  const state: TestConsumer = { acked: new Map(), handedBack: 0, stop: async () => {} };
  const concurrency = options.concurrency ?? 2;

  const handle = async (m: JsMsg): Promise<void> => {
    const kind = m.subject.slice(TASK_SUBJECT_PREFIX.length + 1);
    const handler = handlers[kind];
    if (handler === undefined) {
      m.nak();
      return;
    }
    try {
      await handler(m.data, {
        taskId: m.headers?.get('Nats-Msg-Id') ?? String(m.seq),
        deliveryCount: m.info.deliveryCount,
        maxDeliver: options.maxDeliver ?? 5,
        progress: () => m.working(),
        signal: controller.signal,
        workerId: options.workerId,
      });
      m.ack();
      state.acked.set(kind, (state.acked.get(kind) ?? 0) + 1);
    } catch (err) {
      if (err instanceof ServiceError) m.ack();
      else {
        state.handedBack++;
        m.nak(200);
      }
    }
  };

  const loop = (async () => {
    while (!controller.signal.aborted) {
      try {
        const conn = await link.ready();
        const consumer = await conn.js.consumers.get(TASK_STREAM, WORKER_CONSUMER);
        const room = concurrency - inHand.size;
        if (room <= 0) {
          await Promise.race(inHand);
          continue;
        }
        const batch = await consumer.fetch({ max_messages: room, expires: 1_000 });
        for await (const m of batch) {
          const p = handle(m).finally(() => inHand.delete(p));
          inHand.add(p);
        }
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  })();

  state.stop = async () => {
    controller.abort();
    await loop;
    await Promise.allSettled(inHand);
  };
  return state;
}
