// Order statistics of an f64 array in place, for the percentile of phase B: a three-way quickselect (many equal hourly
// means are common with one sampled cell) that falls back to heapsort after too many rounds, so the worst case stays
// O(n log n). Values must not be NaN.

/** Element `i` of the f64 array at `a`. */
@inline function at(a: usize, i: i32): f64 {
  return load<f64>(a + (<usize>i << 3));
}

/** Swaps elements `i` and `j`. */
@inline function swap(a: usize, i: i32, j: i32): void {
  const t = at(a, i);
  store<f64>(a + (<usize>i << 3), at(a, j));
  store<f64>(a + (<usize>j << 3), t);
}

/** Restores the max-heap property below `root` in a[lo .. lo + n). */
function siftDown(a: usize, lo: i32, root: i32, n: i32): void {
  let r = root;
  for (;;) {
    let child = 2 * r + 1;
    if (child >= n) return;
    if (child + 1 < n && at(a, lo + child + 1) > at(a, lo + child)) child++;
    if (!(at(a, lo + child) > at(a, lo + r))) return;
    swap(a, lo + r, lo + child);
    r = child;
  }
}

/** Sorts a[lo ..= hi] ascending. */
function heapSort(a: usize, lo: i32, hi: i32): void {
  const n = hi - lo + 1;
  for (let r = (n >> 1) - 1; r >= 0; r--) siftDown(a, lo, r, n);
  for (let end = n - 1; end > 0; end--) {
    swap(a, lo, lo + end);
    siftDown(a, lo, 0, end);
  }
}

/** Median of three values. */
@inline function median3(x: f64, y: f64, z: f64): f64 {
  return max(min(x, y), min(max(x, y), z));
}

/**
 * Rearranges the `n` values at `a` so that position `k` holds the value a full ascending sort would put there and every
 * later position holds a value ≥ it; returns that value.
 */
export function selectKth(a: usize, n: i32, k: i32): f64 {
  let lo = 0;
  let hi = n - 1;
  let rounds = 0;
  while (lo < hi) {
    if (++rounds > 64) {
      heapSort(a, lo, hi);
      return at(a, k);
    }
    const pivot = median3(at(a, lo), at(a, lo + ((hi - lo) >> 1)), at(a, hi));
    let lt = lo, i = lo, gt = hi;
    while (i <= gt) {
      const v = at(a, i);
      if (v < pivot) swap(a, lt++, i++);
      else if (v > pivot) swap(a, i, gt--);
      else i++;
    }
    if (k < lt) hi = lt - 1;
    else if (k > gt) lo = gt + 1;
    else return at(a, k);
  }
  return at(a, k);
}

/** Smallest of a[from .. n). */
export function minFrom(a: usize, from: i32, n: i32): f64 {
  let m = at(a, from);
  for (let i = from + 1; i < n; i++) m = min(m, at(a, i));
  return m;
}
