import { describe, expect, it } from 'vitest';
import { createRandom, hash32 } from '../../src/util/random.js';

const N = 100_000;

function draws(fn: () => number, n = N): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = fn();
  return out;
}

function meanVar(x: Float64Array): [number, number] {
  let s = 0;
  for (const v of x) s += v;
  const mean = s / x.length;
  let q = 0;
  for (const v of x) q += (v - mean) ** 2;
  return [mean, q / (x.length - 1)];
}

describe('createRandom', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const a = createRandom(42);
    const b = createRandom(42);
    const c = createRandom(43);
    const sa = Array.from({ length: 20 }, () => a.next());
    expect(Array.from({ length: 20 }, () => b.next())).toEqual(sa);
    expect(Array.from({ length: 20 }, () => c.next())).not.toEqual(sa);
  });

  it('draws uniforms in [0, 1) with mean 1/2 and variance 1/12', () => {
    const x = draws(createRandom(1).next);
    expect(x.reduce((m, v) => Math.min(m, v), 1)).toBeGreaterThanOrEqual(0);
    expect(x.reduce((m, v) => Math.max(m, v), 0)).toBeLessThan(1);
    const [mean, variance] = meanVar(x);
    expect(mean).toBeCloseTo(0.5, 2);
    expect(variance).toBeCloseTo(1 / 12, 2);
  });

  it('draws standard normals: mean 0, variance 1, 95 % within ±1.96', () => {
    const x = draws(createRandom(2).normal);
    const [mean, variance] = meanVar(x);
    expect(Math.abs(mean)).toBeLessThan(0.015);
    expect(Math.abs(variance - 1)).toBeLessThan(0.02);
    const inside = x.filter((v) => Math.abs(v) < 1.96).length / x.length;
    expect(Math.abs(inside - 0.95)).toBeLessThan(0.005);
  });

  it('draws integers uniformly in [0, n)', () => {
    const r = createRandom(3);
    const counts = new Array(7).fill(0);
    for (let i = 0; i < 70_000; i++) counts[r.int(7)]++;
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(400); // ~4 standard deviations
    expect(() => r.int(0)).toThrow(RangeError);
    expect(() => r.int(2.5)).toThrow(RangeError);
  });

  it('forks by label, independently of how far the parent has advanced', () => {
    const a = createRandom(7);
    const b = createRandom(7);
    for (let i = 0; i < 5; i++) b.next();
    expect(a.fork('wind').next()).toBe(b.fork('wind').next());
    expect(a.fork('wind').next()).not.toBe(a.fork('cloud').next());
    expect(a.fork(1).next()).not.toBe(a.fork('1').next());
    expect(a.fork('wind').seed).not.toBe(createRandom(8).fork('wind').seed);
  });

  it('gives uncorrelated forks and seeds', () => {
    const x = draws(createRandom(11).fork('a').next, 20_000);
    const y = draws(createRandom(11).fork('b').next, 20_000);
    const z = draws(createRandom(12).next, 20_000);
    const corr = (p: Float64Array, q: Float64Array) => {
      let s = 0;
      for (let i = 0; i < p.length; i++) s += (p[i] - 0.5) * (q[i] - 0.5);
      return s / p.length / (1 / 12);
    };
    expect(Math.abs(corr(x, y))).toBeLessThan(0.03);
    expect(Math.abs(corr(x, z))).toBeLessThan(0.03);
  });

  it('accepts non-integer and negative seeds deterministically', () => {
    expect(createRandom(-5).next()).toBe(createRandom(-5).next());
    expect(createRandom(0.5).next()).not.toBe(createRandom(0.25).next());
    expect(() => createRandom(Number.NaN)).toThrow(RangeError);
  });
});

describe('hash32', () => {
  it('is a deterministic unsigned 32-bit hash that depends on order and every value', () => {
    const h = hash32(12, 34, 5);
    expect(h).toBe(hash32(12, 34, 5));
    expect(Number.isInteger(h) && h >= 0 && h < 2 ** 32).toBe(true);
    expect(hash32(34, 12, 5)).not.toBe(h);
    expect(hash32(12, 34)).not.toBe(h);
    expect(hash32(1.5)).not.toBe(hash32(1));
    expect(hash32(2 ** 40)).not.toBe(hash32(0));
  });

  it('spreads neighbouring cells uniformly (per-cell noise)', () => {
    const u = new Float64Array(200 * 200);
    for (let r = 0; r < 200; r++) for (let c = 0; c < 200; c++) u[r * 200 + c] = hash32(r, c, 99) / 2 ** 32;
    const [mean, variance] = meanVar(u);
    expect(mean).toBeCloseTo(0.5, 2);
    expect(variance).toBeCloseTo(1 / 12, 2);
    let lag = 0;
    for (let i = 1; i < u.length; i++) lag += (u[i] - 0.5) * (u[i - 1] - 0.5);
    expect(Math.abs(lag / u.length / (1 / 12))).toBeLessThan(0.02);
  });
});
