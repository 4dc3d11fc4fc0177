/**
 * Seeded, platform-independent pseudo-random numbers for the stand-in city model.
 *
 * Streams are xoshiro128** (Blackman & Vigna 2018: 128-bit state, period 2^128 − 1, passes BigCrush), seeded through
 * splitmix32 so that nearby seeds give unrelated streams. All arithmetic is 32-bit integer (`Math.imul`, `>>>`), so a
 * seed yields the same sequence on every machine and Node version.
 *
 * `fork(label)` derives a child stream from the parent's seed and the label only, never from the parent's position: a
 * generator can add draws to one component without shifting the numbers of any other component.
 */

/** A deterministic stream of pseudo-random numbers. */
export interface Random {
  /** The seed this stream was created from (after label mixing for forks). */
  readonly seed: number;
  /** Uniform in [0, 1), 32 bits of resolution. */
  next(): number;
  /** Standard normal (mean 0, variance 1), Box–Muller transform. */
  normal(): number;
  /** Uniform integer in [0, n) for a positive integer n ≤ 2^32. */
  int(n: number): number;
  /** An independent stream derived from this stream's seed and `label`; the same label always gives the same stream. */
  fork(label: string | number): Random;
}

const TWO_POW_32 = 4294967296;

/** Final avalanche of a 32-bit value (the "lowbias32" mixer, C. Wellons 2018: bias ≈ 0.17 of an ideal mixer). */
function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Folds one number into a running hash: integers by their low and high 32-bit words, other values by their bits. */
function absorb(h: number, value: number): number {
  let lo: number;
  let hi: number;
  if (Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER) {
    lo = value >>> 0;
    hi = Math.floor(value / TWO_POW_32) >>> 0;
  } else {
    FLOAT_VIEW[0] = value;
    lo = WORD_VIEW[0];
    hi = WORD_VIEW[1] ^ 0x5bd1e995; // keeps 1.5 from colliding with an integer of the same bit pattern
  }
  h = mix32((h ^ lo) + 0x9e3779b9);
  return mix32((h ^ hi) + 0x9e3779b9);
}

const FLOAT_VIEW = new Float64Array(1);
const WORD_VIEW = new Uint32Array(FLOAT_VIEW.buffer);

/** Deterministic 32-bit hash (unsigned) of a list of numbers; for per-cell noise without a stream. Order matters. */
export function hash32(...values: number[]): number {
  let h = 0x811c9dc5 ^ values.length;
  for (let i = 0; i < values.length; i++) h = absorb(h, values[i]);
  return h;
}

/** 32-bit hash of a string label (FNV-1a over UTF-16 code units, then mixed). */
function hashLabel(label: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
  return mix32(h >>> 0);
}

/** Creates the stream for `seed` (any finite number; non-integers are hashed by their bits). */
export function createRandom(seed: number): Random {
  if (!Number.isFinite(seed)) throw new RangeError(`createRandom: seed must be finite, got ${seed}`);
  const seed32 = Number.isInteger(seed) && seed >= 0 && seed < TWO_POW_32 ? seed : hash32(seed);
  // splitmix32 expands the seed into the four state words (Vigna's recommended seeding for xoshiro).
  let sm = seed32 >>> 0;
  const words = new Uint32Array(4);
  for (let i = 0; i < 4; i++) {
    sm = (sm + 0x9e3779b9) >>> 0;
    let z = sm;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    words[i] = (z ^ (z >>> 16)) >>> 0;
  }
  if ((words[0] | words[1] | words[2] | words[3]) === 0) words[0] = 1; // the all-zero state is a fixed point
  // State and the spare normal live in typed arrays: closure variables holding 32-bit words or doubles would be boxed
  // on every update, and the garbage they make would dominate the cost of a draw.
  const s = new Int32Array(words.buffer);
  const spare = new Float64Array([Number.NaN]); // second Box–Muller variate, used by the next normal() call

  const nextU32 = (): number => {
    const s1 = s[1];
    const r = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    s[2] ^= s[0];
    s[3] ^= s1;
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return r;
  };

  const random: Random = {
    seed: seed32,
    next: () => nextU32() / TWO_POW_32,
    normal: () => {
      const z = spare[0];
      if (!Number.isNaN(z)) {
        spare[0] = Number.NaN;
        return z;
      }
      // 1 − u lies in (0, 1], so the logarithm is finite.
      const u = 1 - nextU32() / TWO_POW_32;
      const v = nextU32() / TWO_POW_32;
      const r = Math.sqrt(-2 * Math.log(u));
      spare[0] = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    },
    int: (n: number) => {
      if (!Number.isInteger(n) || n <= 0 || n > TWO_POW_32) {
        throw new RangeError(`Random.int: n must be an integer in 1..2^32, got ${n}`);
      }
      return Math.floor((nextU32() / TWO_POW_32) * n);
    },
    fork: (label: string | number) =>
      createRandom(typeof label === 'string' ? hash32(seed32, hashLabel(label), 1) : hash32(seed32, label, 2)),
  };
  return random;
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
