/**
 * Wind a Brussels planner would believe, checked on the street-level fixture (brussels_extended, seed 7) as the air
 * and thermal ranges are in generate.test.ts: every outdoor cell's wind block is computed by the statistics' own
 * reference (computeWindBlock) and held against the open-site reference year it was made from.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_LOCATIONS } from '../../src/cities/landmarks.js';
import { wgs84ToLambert72 } from '../../src/geo/crs.js';
import { SURFACE } from '../../src/model/cell-features.js';
import { planFeatures, planGrid, REFERENCE_YEAR } from '../../src/model/generate.js';
import { generateMeteorology } from '../../src/model/meteorology.js';
import { presetPlans } from '../../src/model/presets.js';
import { OutdoorWindow } from '../../src/sampling/outdoor-window.js';
import { sampleCells } from '../../src/sampling/sampling.js';
import { buildCalendar, type Calendar } from '../../src/stats/calendar.js';
import type { WindBlock } from '../../src/stats/blocks.js';
import { computeWindBlock } from '../../src/stats/wind.js';
import type { DatasetReader } from '../../src/store/dataset-types.js';
import { openDataset } from '../../src/store/zarr-reader.js';
import { FIXTURE_SEED, fixtureDataDir } from '../helpers/fixtures.js';

/** The year's wind block of the hourly mean Ucomfort and Ugust over `cells` (how the statistics average cells). */
async function windOf(ds: DatasetReader, calendar: Calendar, cells: Int32Array): Promise<WindBlock> {
  const block = await ds.readCellsDecoded(['ucomfort', 'ugust'], cells);
  const [u, g] = [block.values.ucomfort as Float32Array, block.values.ugust as Float32Array];
  const n = cells.length;
  const ucomfort = new Float64Array(ds.hours);
  const ugust = new Float64Array(ds.hours);
  for (let h = 0; h < ds.hours; h++) {
    for (let k = 0; k < n; k++) {
      ucomfort[h] += u[h * n + k] / n;
      ugust[h] += g[h * n + k] / n;
    }
  }
  return computeWindBlock({ ucomfort, ugust }, calendar)!;
}

describe('pedestrian wind on the street-level fixture', () => {
  let ds: DatasetReader;
  let surface: Uint8Array;
  let calendar: Calendar;
  let openMean: number;
  let openMaxGust: number;
  /** Wind block of every outdoor cell by flat index. */
  const blocks = new Map<number, WindBlock>();
  const of = (code: number) => [...blocks].filter(([i]) => surface[i] === code).map(([, b]) => b);

  beforeAll(async () => {
    ds = await openDataset(join(await fixtureDataDir(), 'brussels_extended'));
    const plan = presetPlans('fixture').find((p) => p.id === 'brussels_extended')!;
    surface = planFeatures(plan, planGrid(plan), FIXTURE_SEED).surface;
    calendar = buildCalendar(REFERENCE_YEAR, ds.hours, 'Europe/Brussels');
    const met = generateMeteorology({ year: REFERENCE_YEAR, seed: FIXTURE_SEED, lat: 50.7985, lon: 4.3587 });
    openMean = met.wind10.reduce((s, v) => s + v, 0) / met.hours;
    openMaxGust = met.gust10.reduce((m, v) => Math.max(m, v), 0);
    const outdoor = await ds.readStatic('outdoor');
    const cells = [...outdoor.keys()].filter((i) => outdoor[i] === 1);
    for (let at = 0; at < cells.length; at += 256) {
      const batch = cells.slice(at, at + 256);
      const block = await ds.readCellsDecoded(['ucomfort', 'ugust'], Int32Array.from(batch));
      batch.forEach((cell, k) => {
        const ucomfort = new Float64Array(ds.hours);
        const ugust = new Float64Array(ds.hours);
        for (let h = 0; h < ds.hours; h++) {
          ucomfort[h] = (block.values.ucomfort as Float32Array)[h * batch.length + k];
          ugust[h] = (block.values.ugust as Float32Array)[h * batch.length + k];
        }
        blocks.set(cell, computeWindBlock({ ucomfort, ugust }, calendar)!);
      });
    }
  }, 120_000);

  it('is driven by an open-site year in Uccle\'s measured range: mean 3.5–4.5 m/s, a storm gusting 25–32 m/s', () => {
    expect(openMean).toBeGreaterThan(3.5);
    expect(openMean).toBeLessThan(4.5);
    expect(openMaxGust).toBeGreaterThan(25);
    expect(openMaxGust).toBeLessThan(32);
  });

  it('slows the wind by place: courtyards to 0.1–0.3 of the open site, streets 0.3–0.6, squares 0.35–0.65', () => {
    const ratio = (code: number) => {
      const list = of(code).map((b) => b.mean_ucomfort_ms / openMean).sort((a, b) => a - b);
      return { min: list[0], median: list[list.length >> 1], max: list[list.length - 1] };
    };
    const [courtyard, street, square, crossing] = [SURFACE.courtyard, SURFACE.street, SURFACE.square, SURFACE.crossing].map(ratio);
    expect(courtyard.min).toBeGreaterThanOrEqual(0.1);
    expect(courtyard.max).toBeLessThanOrEqual(0.32);
    expect(street.min).toBeGreaterThanOrEqual(0.3);
    expect(street.max).toBeLessThanOrEqual(0.6);
    expect(square.min).toBeGreaterThanOrEqual(0.35);
    expect(square.max).toBeLessThanOrEqual(0.65);
    // Corner streams: the windiest crossings well above any street.
    expect(crossing.max).toBeGreaterThan(street.max + 0.2);
  });

  it('gusts nowhere above 1.3 × the open site\'s strongest, and below it in courtyards, squares and streets', () => {
    const maxGust = (list: WindBlock[]) => list.reduce((m, b) => Math.max(m, b.max_gust_ms!), 0);
    expect(maxGust([...blocks.values()])).toBeLessThanOrEqual(1.3 * openMaxGust);
    for (const code of [SURFACE.courtyard, SURFACE.square, SURFACE.street]) {
      expect(maxGust(of(code)), `surface ${code}`).toBeLessThan(openMaxGust);
    }
    expect(maxGust(of(SURFACE.courtyard))).toBeLessThan(0.5 * openMaxGust);
  });

  it('rates wind Bad only at crossings, where danger hours concentrate, on at most a tenth of the outdoor cells', () => {
    const bad = [...blocks].filter(([, b]) => b.rating < 2);
    expect(bad.length).toBeGreaterThan(0);
    expect(bad.length).toBeLessThanOrEqual(0.1 * blocks.size);
    for (const [cell] of bad) expect(surface[cell], `cell ${cell}`).toBe(SURFACE.crossing);
  });

  it('gives every rating band, 0 to 10, somewhere in the city', () => {
    const ratings = new Set([...blocks.values()].map((b) => Math.round(b.rating)));
    expect([...ratings].sort((a, b) => a - b)).toEqual([0, 2, 4, 6, 8, 10]);
  });

  it.each(['Grand-Place', 'Place de la Bourse', 'Gare Centrale'])('does not rate %s Bad', async (name) => {
    const place = REFERENCE_LOCATIONS.brussels.find((l) => l.name === name)!;
    const [x, y] = wgs84ToLambert72(place.lon, place.lat);
    const sample = sampleCells(ds.grid, OutdoorWindow.whole(ds.grid, await ds.readStatic('outdoor')), x, y, { nationwide: false });
    const wind = await windOf(ds, calendar, sample.cells);
    expect(wind.rating).toBeGreaterThanOrEqual(2);
    expect(wind.exceedance_pct.danger).toBeLessThanOrEqual(0.05);
  });
});
