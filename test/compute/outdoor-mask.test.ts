/**
 * The outdoor mask read by window: any rectangle across static chunk boundaries equals the same cells of the whole
 * mask, clipped to the grid; decoded chunks are kept in a small cache, a failed read is not; a window is read by flat
 * grid index and refuses a cell outside it. Sampling reads no more than `sampleReach`: the same sample from a window cut
 * to it as from the whole mask, wherever the location and whatever the rule.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OutdoorMask, type OutdoorSource } from '../../src/compute/datasets/outdoor-mask.js';
import { DamagedDataError, OutsideCoverageError } from '../../src/errors.js';
import { clipRect, OutdoorWindow, unionRect, type GridRect } from '../../src/sampling/outdoor-window.js';
import { sampleCells, sampleReach, type SampleOptions } from '../../src/sampling/sampling.js';
import type { GridGeometry } from '../../src/store/dataset-types.js';

/** 23 × 17 cells of 10 m in static chunks of 5 × 4 (the last row and column of chunks padded). */
const GRID: GridGeometry = { crs_epsg: 31370, resolution_m: 10, nx: 17, ny: 23, x0: 150_005, y0: 170_225 };
const CHUNK = [5, 4] as const;
/** Outdoor except a diagonal band of buildings and a block. */
const FLAGS = Uint8Array.from({ length: GRID.nx * GRID.ny }, (_, i) => {
  const r = Math.floor(i / GRID.nx), c = i % GRID.nx;
  return Math.abs(r - c) <= 1 || (r >= 10 && r < 16 && c >= 2 && c < 9) ? 0 : 1;
});

/** A store of FLAGS in CHUNK-sized chunks, counting reads; `fail` names chunks whose read fails once. */
function source(fail = new Set<string>()): OutdoorSource & { reads: string[] } {
  const reads: string[] = [];
  const readStaticChunk = async (_name: string, i: number, j: number) => {
    reads.push(`${i}/${j}`);
    if (fail.delete(`${i}/${j}`)) throw new DamagedDataError(`Dataset 'x' is damaged: chunk outdoor/${i}/${j} is missing.`, { dataset: 'x', path: 'x' });
    const data = new Uint8Array(CHUNK[0] * CHUNK[1]).fill(7);
    for (let r = 0; r < CHUNK[0]; r++) {
      for (let c = 0; c < CHUNK[1]; c++) {
        const row = i * CHUNK[0] + r, col = j * CHUNK[1] + c;
        if (row < GRID.ny && col < GRID.nx) data[r * CHUNK[1] + c] = FLAGS[row * GRID.nx + col]!;
      }
    }
    return data;
  };
  return { grid: GRID, staticChunk: CHUNK, readStaticChunk: readStaticChunk as OutdoorSource['readStaticChunk'], reads };
}

describe('the outdoor mask read by window', () => {
  it('gives every rectangle the whole mask\'s cells, clipped to the grid, across chunk boundaries', async () => {
    const mask = new OutdoorMask(source());
    const rect = fc.record({ row0: fc.integer({ min: -3, max: 25 }), rows: fc.integer({ min: 0, max: 12 }), col0: fc.integer({ min: -3, max: 19 }), cols: fc.integer({ min: 0, max: 12 }) });
    await fc.assert(fc.asyncProperty(rect, async ({ row0, rows, col0, cols }) => {
      const window = await mask.window({ row0, row1: row0 + rows, col0, col1: col0 + cols });
      const clipped = clipRect(GRID, { row0, row1: row0 + rows, col0, col1: col0 + cols });
      expect(window.rect).toEqual(clipped);
      for (let r = clipped.row0; r < clipped.row1; r++) {
        for (let c = clipped.col0; c < clipped.col1; c++) expect(window.at(r * GRID.nx + c)).toBe(FLAGS[r * GRID.nx + c]);
      }
    }), { seed: 20261129, numRuns: 200 });
  });

  it('keeps a few decoded chunks, not a failed read', async () => {
    const src = source(new Set(['1/1']));
    const mask = new OutdoorMask(src);
    await mask.window({ row0: 0, row1: 5, col0: 0, col1: 8 });
    await mask.window({ row0: 1, row1: 4, col0: 2, col1: 7 });
    expect(src.reads).toEqual(['0/0', '0/1']);
    const failed = mask.window({ row0: 6, row1: 7, col0: 5, col1: 6 });
    await expect(failed).rejects.toBeInstanceOf(DamagedDataError);
    await expect(failed).rejects.toThrow('chunk outdoor/1/1 is missing');
    expect((await mask.window({ row0: 6, row1: 7, col0: 5, col1: 6 })).at(6 * GRID.nx + 5)).toBe(FLAGS[6 * GRID.nx + 5]);
    expect(src.reads).toEqual(['0/0', '0/1', '1/1', '1/1']);
    // Every chunk once more than the cache holds: the first ones are read again.
    await mask.window({ row0: 0, row1: GRID.ny, col0: 0, col1: GRID.nx });
    const reads = src.reads.length;
    await mask.window({ row0: 0, row1: 1, col0: 0, col1: 1 });
    expect(src.reads.length).toBe(reads + 1);
  });

  it('refuses a cell outside the window, and a window the values do not fill', async () => {
    const window = await new OutdoorMask(source()).window({ row0: 2, row1: 4, col0: 3, col1: 6 });
    expect(window.at(2 * GRID.nx + 3)).toBe(FLAGS[2 * GRID.nx + 3]);
    expect(() => window.at(4 * GRID.nx + 3)).toThrow(RangeError);
    expect(() => window.at(2 * GRID.nx + 6)).toThrow(/outside the outdoor window/);
    expect(() => new OutdoorWindow(GRID.nx, { row0: 0, row1: 2, col0: 0, col1: 2 }, new Uint8Array(3))).toThrow(RangeError);
    expect(unionRect({ row0: 1, row1: 3, col0: 4, col1: 5 }, { row0: 2, row1: 2, col0: 0, col1: 9 })).toEqual({ row0: 1, row1: 3, col0: 4, col1: 5 });
    expect(unionRect({ row0: 1, row1: 3, col0: 4, col1: 5 }, { row0: 0, row1: 2, col0: 6, col1: 9 })).toEqual({ row0: 0, row1: 3, col0: 4, col1: 9 });
  });
});

describe('sampling within its reach', () => {
  it('takes the same sample from a window cut to sampleReach as from the whole mask (point, nearest outdoor, radius)', () => {
    // 800 × 800 cells of 1 m: blocks of buildings between streets, and one block 540 m wide whose middle lies farther
    // than the nearest-outdoor search's 250 m from any street; windows cut to the reach are a small part of the grid.
    const grid: GridGeometry = { crs_epsg: 31370, resolution_m: 1, nx: 800, ny: 800, x0: 150_000.5, y0: 170_799.5 };
    const flags = Uint8Array.from({ length: 800 * 800 }, (_, i) => {
      const r = Math.floor(i / 800), c = i % 800;
      const big = r >= 100 && r < 640 && c >= 100 && c < 640;
      return big || (r % 40 < 30 && c % 50 < 35) ? 0 : 1;
    });
    const whole = OutdoorWindow.whole(grid, flags);
    const place = fc.record({
      x: fc.double({ min: 150_000, max: 150_799.99, noNaN: true }),
      y: fc.double({ min: 170_000.01, max: 170_800, noNaN: true }),
      radius: fc.option(fc.integer({ min: 5, max: 50 }), { nil: undefined }),
    });
    const cutTo = (reach: GridRect) => {
      const cols = reach.col1 - reach.col0;
      return new OutdoorWindow(grid.nx, reach, Uint8Array.from({ length: (reach.row1 - reach.row0) * cols }, (_, i) =>
        flags[(reach.row0 + Math.floor(i / cols)) * grid.nx + reach.col0 + (i % cols)]!));
    };
    const outcome = (window: OutdoorWindow, x: number, y: number, rule: SampleOptions) => {
      try {
        return sampleCells(grid, window, x, y, rule);
      } catch (err) {
        return err;
      }
    };
    fc.assert(fc.property(place, ({ x, y, radius }) => {
      const rule = { radius_m: radius, nationwide: false };
      const cut = cutTo(sampleReach(grid, x, y, rule));
      const reach = cut.rect;
      expect((reach.row1 - reach.row0) * (reach.col1 - reach.col0)).toBeLessThan(flags.length);
      expect(outcome(cut, x, y, rule)).toEqual(outcome(whole, x, y, rule));
    }), { seed: 20261129, numRuns: 150 });
    // The big block's middle: no outdoor cell within 250 m, found so from the window alone.
    const rule = { nationwide: false };
    const middle = outcome(cutTo(sampleReach(grid, 150_370, 170_430, rule)), 150_370, 170_430, rule);
    expect(middle).toBeInstanceOf(OutsideCoverageError);
    expect(middle).toEqual(outcome(whole, 150_370, 170_430, rule));
  });

  it('reaches nothing where nothing is read: outside the grid, nationwide, a radius out of bounds', () => {
    const empty = { row0: 0, row1: 0, col0: 0, col1: 0 };
    expect(sampleReach(GRID, 0, 0, { nationwide: false })).toEqual(empty);
    expect(sampleReach(GRID, GRID.x0, GRID.y0, { nationwide: true })).toEqual(empty);
    expect(sampleReach(GRID, GRID.x0, GRID.y0, { nationwide: false, radius_m: 5000 })).toEqual(empty);
    expect(sampleReach(GRID, Number.NaN, GRID.y0, { nationwide: false })).toEqual(empty);
    expect(sampleReach(GRID, GRID.x0, GRID.y0, { nationwide: false, radius_m: 10 })).toEqual({ row0: 0, row1: 3, col0: 0, col1: 3 });
  });
});
