import { transferableSymbol, valueSymbol } from 'piscina';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { StatsComputation, SurroundingsGrid } from '../../src/compute/compute-types.js';
import type { AccumulateTask, EncodedTask, FinalizePartsTask, StatsTask } from '../../src/compute/tasks/protocol.js';
import type { StatBlocks } from '../../src/stats/blocks.js';
import {
  ACCUMULATE_TASK, AGGREGATE_BLOCK_TASK, FAULT_TASK, FINALIZE_PARTS_TASK, STATISTICS_TASKS, STATS_TASK, SURROUNDINGS_TASK,
} from '../../src/compute/tasks/statistics-tasks.js';
import { COMPRESS_ABOVE, encodeTaskData } from '../../src/compute/tasks/task-codec.js';
import { defineTask, type TaskOf, type ValueOf } from '../../src/compute/tasks/task-definition.js';
import { registerTaskFamily, servedKinds } from '../../src/compute/tasks/task-registry.js';
import { ENCODED_TASK, TASK_KINDS_TASK } from '../../src/compute/tasks/thread-tasks.js';
import { handleComputeTask } from '../../src/compute/tasks/worker-handler.js';
import { MAP_RANGE_TASK } from '../../src/map/map-tasks.js';
import type { ValueRange } from '../../src/map/thermal-range.js';

describe('task definitions', () => {
  it('carry the task and value types of their run function', () => {
    expectTypeOf<TaskOf<typeof STATS_TASK>>().toEqualTypeOf<StatsTask>();
    expectTypeOf<ValueOf<typeof STATS_TASK>>().toEqualTypeOf<StatsComputation>();
    expectTypeOf<ValueOf<typeof ACCUMULATE_TASK>>().toEqualTypeOf<ArrayBuffer>();
    expectTypeOf<ValueOf<typeof FINALIZE_PARTS_TASK>>().toEqualTypeOf<StatBlocks>();
    expectTypeOf<ValueOf<typeof SURROUNDINGS_TASK>>().toEqualTypeOf<SurroundingsGrid>();
    expectTypeOf<ValueOf<typeof ENCODED_TASK>>().toEqualTypeOf<Uint8Array>();
    expectTypeOf<ValueOf<typeof MAP_RANGE_TASK>>().toEqualTypeOf<ValueRange | null>();
    // @ts-expect-error a run function of another kind's task is refused
    defineTask('stats', (task: AccumulateTask) => task.chunks.length);
  });

  it('encode tasks exactly as the task codec always has (the wire format is unchanged)', () => {
    const task: Omit<StatsTask, 'dataDir'> = { kind: 'stats', request: { dataset: 'x', lat: 50.8, lon: 4.35, radius_m: 50 } };
    expect(STATS_TASK.encodeTask(task)).toEqual(encodeTaskData(task));
    // Parts already compressed by the workers that replied: a finalize-parts task is never compressed again.
    const big: Omit<FinalizePartsTask, 'dataDir'> = { kind: 'finalize-parts', dataset: 'x', parts: [new Uint8Array(2 * COMPRESS_ABOVE)] };
    expect(FINALIZE_PARTS_TASK.encodeTask(big)).toEqual(encodeTaskData(big, { compress: false }));
    expect(encodeTaskData(big).byteLength).toBeLessThan(FINALIZE_PARTS_TASK.encodeTask(big).byteLength);
    const records = new Uint32Array([1, 2, 3]).buffer;
    expect(new Uint32Array(ACCUMULATE_TASK.decodeValue(encodeTaskData(records)))).toEqual(new Uint32Array([1, 2, 3]));
  });

  it('make the registry: a thread serves every kind of its families, with where each may run', async () => {
    const reply = await handleComputeTask({ kind: TASK_KINDS_TASK.kind });
    expect(reply.ok).toBe(true);
    expect(reply.ok && reply.value).toEqual(servedKinds());
    const kinds = new Map(servedKinds().map((k) => [k.kind, k]));
    for (const definition of STATISTICS_TASKS) expect(kinds.get(definition.kind)).toBeDefined();
    expect(kinds.get(STATS_TASK.kind)).toEqual({ kind: 'stats', readsData: true, remote: true });
    expect(kinds.get(AGGREGATE_BLOCK_TASK.kind)).toEqual({ kind: 'aggregate-block', readsData: true, remote: false });
    expect(kinds.get(FAULT_TASK.kind)).toEqual({ kind: 'fault', readsData: false, remote: false });
    expect(kinds.has('encoded')).toBe(false);
  });
});

describe('the compute thread handler', () => {
  it('answers a kind no family serves as internal_error, as data', async () => {
    expect(await handleComputeTask({ kind: 'no-such-kind' })).toEqual({
      ok: false, error: { code: 'internal_error', message: "This compute thread serves no task kind 'no-such-kind'." },
    });
  });

  it('moves the buffers a definition names to the caller (a Piscina movable) and leaves the rest to be copied', async () => {
    const made: Float32Array[] = [];
    const MOVING = defineTask('test-moving', (_task: { kind: 'test-moving' }) => {
      const value = { moved: new Float32Array(4).fill(1), copied: new Float32Array(2), shared: new Float32Array(new SharedArrayBuffer(8)) };
      made.push(value.moved);
      return value;
    }, {}, (value) => [value.moved.buffer as ArrayBuffer, value.moved.buffer as ArrayBuffer, value.shared.buffer as unknown as ArrayBuffer]);
    registerTaskFamily([MOVING]);
    const reply = (await handleComputeTask({ kind: 'test-moving' })) as unknown as Record<symbol, unknown>;
    // Named twice, moved once; a shared buffer is never in a transfer list.
    const moved = reply[transferableSymbol] as ArrayBuffer[];
    expect(moved).toHaveLength(1);
    expect(moved[0]).toBe(made[0]!.buffer);
    expect(reply[valueSymbol]).toEqual({ ok: true, value: expect.objectContaining({ moved: made[0] }) });
    // A kind that moves nothing replies as it is.
    expect(await handleComputeTask({ kind: TASK_KINDS_TASK.kind })).toEqual({ ok: true, value: servedKinds() });
  });

  it('refuses an encoded task whose payload holds another kind than its subject', async () => {
    const task: EncodedTask = { kind: 'encoded', payload: encodeTaskData({ kind: 'fault', action: 'throw' }), expect: 'stats' };
    const reply = await handleComputeTask(task);
    expect(reply).toMatchObject({ ok: false, error: { code: 'validation_error' } });
  });
});
