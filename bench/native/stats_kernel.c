/*
 * C baseline of the statistics kernel's phase A (assembly/_accumulate.ts, SIMD path): the same algorithm with 128-bit
 * SSE2/SSE4.1 intrinsics (min, signed compares, pmaddwd for the widening pairwise add, one pass per pollutant, the same
 * per-hour reductions and 128-byte hour records), compiled with gcc -O3 -msse4.1 -mno-avx so it runs at the width the
 * WebAssembly kernel has. Run by bench/kernels.ts as
 *
 *   stats_kernel <input.bin> <rounds>
 *
 * input.bin: int32 hours, cells, chunk count, thresholds[36]; uint8 mask[cells] padded to 4 bytes; then per chunk six
 * int16 arrays of hours × cells (no2, pm25, pm10, ucomfort, ugust, utci). Prints one JSON object: per round, the CPU
 * time of one accumulate call averaged over the chunks; a checksum of the accumulators after one call on the first
 * chunk (compared with the kernel's); the memory bandwidth measured by streaming a 512 MiB buffer.
 */
#define _POSIX_C_SOURCE 200112L
#include <smmintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { REC_BYTES = 128, REC_CLS = 0, REC_CNT = 16, REC_AIR_RAW = 32, REC_WIND_RAW = 64, REC_MET_CNT = 80, REC_UTCI_RAW = 96 };
enum { TH_COUNT = 36, BLOCK_GROUPS = 2048 };

/* CPU time of this process in milliseconds (the benchmark reports throughput per core-second). */
static double cpu_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Wall-clock milliseconds. */
static double wall_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Four i32x4 vectors to one vector of their lane sums (the kernel's sum4). */
static inline __m128i sum4(__m128i a, __m128i b, __m128i c, __m128i d) {
  __m128i ab = _mm_add_epi32(_mm_unpacklo_epi32(a, b), _mm_unpackhi_epi32(a, b));
  __m128i cd = _mm_add_epi32(_mm_unpacklo_epi32(c, d), _mm_unpackhi_epi32(c, d));
  return _mm_add_epi32(_mm_unpacklo_epi64(ab, cd), _mm_unpackhi_epi64(ab, cd));
}

static inline __m128i widen(__m128i v) { return _mm_madd_epi16(v, _mm_set1_epi16(1)); }

/* Negative BelAQI class of 8 values: the validity mask plus one −1 per class threshold exceeded. */
static inline __m128i neg_class(__m128i v, __m128i valid, const __m128i *t) {
  __m128i k = valid;
  for (int i = 1; i < 10; i++) k = _mm_add_epi16(k, _mm_cmpgt_epi16(v, t[i]));
  return k;
}

static inline void add_i32(uint8_t *p, int32_t v) { int32_t x; memcpy(&x, p, 4); x += v; memcpy(p, &x, 4); }
static inline void add_i64(uint8_t *p, int64_t v) { int64_t x; memcpy(&x, p, 8); x += v; memcpy(p, &x, 8); }
static inline __m128i load(const void *p) { return _mm_loadu_si128((const __m128i *)p); }
static inline void store(void *p, __m128i v) { _mm_storeu_si128((__m128i *)p, v); }

/*
 * One pollutant's pass over groups [g0, end) of one hour (the kernel's airPass): class sum, count and raw sum into
 * out[0..2], the per-group worst class in `worst` — stored (mode 0), merged (mode 1), or merged and summed into the
 * graded-cell class sum and count out[3], out[4] (mode 2).
 */
static inline void air_pass(const int16_t *row, const int16_t *mask, const __m128i *t, __m128i *worst, int g0, int end,
                            int mode, __m128i *out) {
  const __m128i zero = _mm_setzero_si128();
  __m128i k = zero, n = zero, s = zero, gs = zero, gn = zero;
  for (int g = g0; g < end; g++) {
    const __m128i v = _mm_min_epi16(load(row + 8 * g), load(mask + 8 * g));
    const __m128i ok = _mm_cmpgt_epi16(v, t[0]);
    const __m128i c = neg_class(v, ok, t);
    k = _mm_add_epi16(k, c);
    n = _mm_add_epi16(n, ok);
    s = _mm_add_epi32(s, widen(_mm_and_si128(v, ok)));
    if (mode == 0) {
      worst[g] = c;
    } else if (mode == 1) {
      worst[g] = _mm_min_epi16(worst[g], c);
    } else {
      const __m128i cell = _mm_min_epi16(worst[g], c);
      gs = _mm_add_epi16(gs, cell);
      gn = _mm_add_epi16(gn, _mm_cmplt_epi16(cell, zero));
    }
  }
  out[0] = k; out[1] = n; out[2] = s;
  if (mode == 2) { out[3] = gs; out[4] = gn; }
}

/* Phase A over one chunk with every field present and `cells` a multiple of 8 (the benchmark's shape). */
static void accumulate(int hours, int cells, const int16_t *const *f, const int16_t *mask, const int32_t *th, __m128i *worst,
                       uint8_t *acc) {
  const int groups = cells >> 3;
  __m128i t[3][10];
  for (int p = 0; p < 3; p++) for (int k = 0; k < 10; k++) t[p][k] = _mm_set1_epi16((int16_t)th[p * 10 + k]);
  const __m128i tu = _mm_set1_epi16((int16_t)th[30]), tg = _mm_set1_epi16((int16_t)th[31]), tt = _mm_set1_epi16((int16_t)th[32]);
  const __m128i zero = _mm_setzero_si128();
  for (int h = 0; h < hours; h++) {
    uint8_t *rec = acc + (size_t)h * REC_BYTES;
    const size_t row = (size_t)h * cells;
    for (int g0 = 0; g0 < groups; g0 += BLOCK_GROUPS) {
      const int end = groups < g0 + BLOCK_GROUPS ? groups : g0 + BLOCK_GROUPS;
      __m128i a[3], b[3], c[5];
      air_pass(f[0] + row, mask, t[0], worst, g0, end, 0, a);
      air_pass(f[1] + row, mask, t[1], worst, g0, end, 1, b);
      air_pass(f[2] + row, mask, t[2], worst, g0, end, 2, c);
      const __m128i cls = sum4(widen(a[0]), widen(b[0]), widen(c[0]), widen(c[3]));
      const __m128i cnt = sum4(widen(a[1]), widen(b[1]), widen(c[1]), widen(c[4]));
      store(rec + REC_CLS, _mm_sub_epi32(load(rec + REC_CLS), cls));
      store(rec + REC_CNT, _mm_sub_epi32(load(rec + REC_CNT), cnt));
      const __m128i raw = sum4(a[2], b[2], c[2], zero);
      store(rec + REC_AIR_RAW, _mm_add_epi64(load(rec + REC_AIR_RAW), _mm_cvtepi32_epi64(raw)));
      store(rec + REC_AIR_RAW + 16, _mm_add_epi64(load(rec + REC_AIR_RAW + 16), _mm_cvtepi32_epi64(_mm_unpackhi_epi64(raw, raw))));
    }
    for (int g0 = 0; g0 < groups; g0 += BLOCK_GROUPS) {
      const int end = groups < g0 + BLOCK_GROUPS ? groups : g0 + BLOCK_GROUPS;
      __m128i nu = zero, ng = zero, su = zero, sg = zero;
      for (int g = g0; g < end; g++) {
        const __m128i m = load(mask + 8 * g);
        const __m128i u = _mm_min_epi16(load(f[3] + row + 8 * g), m), v = _mm_min_epi16(load(f[4] + row + 8 * g), m);
        const __m128i ou = _mm_cmpgt_epi16(u, tu), ov = _mm_cmpgt_epi16(v, tg);
        nu = _mm_add_epi16(nu, ou); ng = _mm_add_epi16(ng, ov);
        su = _mm_add_epi32(su, widen(_mm_and_si128(u, ou))); sg = _mm_add_epi32(sg, widen(_mm_and_si128(v, ov)));
      }
      const __m128i r = sum4(widen(nu), widen(ng), su, sg);
      add_i32(rec + REC_MET_CNT, -_mm_extract_epi32(r, 0));
      add_i32(rec + REC_MET_CNT + 4, -_mm_extract_epi32(r, 1));
      store(rec + REC_WIND_RAW, _mm_add_epi64(load(rec + REC_WIND_RAW), _mm_cvtepi32_epi64(_mm_unpackhi_epi64(r, r))));
    }
    for (int g0 = 0; g0 < groups; g0 += BLOCK_GROUPS) {
      const int end = groups < g0 + BLOCK_GROUPS ? groups : g0 + BLOCK_GROUPS;
      __m128i n = zero, s = zero;
      for (int g = g0; g < end; g++) {
        const __m128i v = _mm_min_epi16(load(f[5] + row + 8 * g), load(mask + 8 * g));
        const __m128i ok = _mm_cmpgt_epi16(v, tt);
        n = _mm_add_epi16(n, ok);
        s = _mm_add_epi32(s, widen(_mm_and_si128(v, ok)));
      }
      const __m128i r = sum4(widen(n), s, zero, zero);
      add_i32(rec + REC_MET_CNT + 8, -_mm_extract_epi32(r, 0));
      add_i64(rec + REC_UTCI_RAW, _mm_extract_epi32(r, 1));
    }
  }
}

/* Streams `bytes` once with 128-bit loads; returns GB/s (10^9 bytes per second), best of `rounds`. */
static double bandwidth(size_t bytes, int rounds, long long *sink) {
  uint8_t *buf = aligned_alloc(64, bytes);
  memset(buf, 1, bytes);
  double best = 0;
  for (int r = 0; r < rounds; r++) {
    __m128i a = _mm_setzero_si128(), b = a, c = a, d = a;
    const double t0 = wall_ms();
    for (size_t i = 0; i < bytes; i += 64) {
      a = _mm_add_epi32(a, _mm_load_si128((const __m128i *)(buf + i)));
      b = _mm_add_epi32(b, _mm_load_si128((const __m128i *)(buf + i + 16)));
      c = _mm_add_epi32(c, _mm_load_si128((const __m128i *)(buf + i + 32)));
      d = _mm_add_epi32(d, _mm_load_si128((const __m128i *)(buf + i + 48)));
    }
    const double ms = wall_ms() - t0;
    const __m128i s = _mm_add_epi32(_mm_add_epi32(a, b), _mm_add_epi32(c, d));
    *sink += _mm_extract_epi32(s, 0);
    const double gbps = bytes / 1e6 / ms;
    if (gbps > best) best = gbps;
  }
  free(buf);
  return best;
}

int main(int argc, char **argv) {
  if (argc != 3) { fprintf(stderr, "usage: %s input.bin rounds\n", argv[0]); return 2; }
  FILE *in = fopen(argv[1], "rb");
  if (!in) { perror(argv[1]); return 1; }
  int32_t head[3 + TH_COUNT];
  if (fread(head, 4, 3 + TH_COUNT, in) != 3 + TH_COUNT) { fprintf(stderr, "short header\n"); return 1; }
  const int hours = head[0], cells = head[1], chunks = head[2], rounds = atoi(argv[2]);
  if (hours <= 0 || cells <= 0 || cells % 8 || chunks <= 0 || rounds <= 0) {
    fprintf(stderr, "need hours > 0, cells a positive multiple of 8, chunks > 0, rounds > 0\n");
    return 1;
  }
  const size_t n = (size_t)hours * cells, maskBytes = ((size_t)cells + 3) & ~(size_t)3;
  uint8_t *mask8 = malloc(maskBytes);
  int16_t *mask = aligned_alloc(16, (size_t)cells * 2 + 16);
  if (fread(mask8, 1, maskBytes, in) != maskBytes) { fprintf(stderr, "short mask\n"); return 1; }
  for (int c = 0; c < cells; c++) mask[c] = mask8[c] ? 32767 : -32768;
  const int16_t **f = malloc(sizeof(int16_t *) * 6 * (size_t)chunks);
  for (int i = 0; i < 6 * chunks; i++) {
    int16_t *buf = aligned_alloc(16, n * 2);
    if (fread(buf, 2, n, in) != n) { fprintf(stderr, "short chunk %d\n", i); return 1; }
    f[i] = buf;
  }
  fclose(in);
  __m128i *worst = aligned_alloc(16, (size_t)cells * 2 + 16);
  uint8_t *acc = aligned_alloc(16, (size_t)hours * REC_BYTES);
  memset(acc, 0, (size_t)hours * REC_BYTES);
  accumulate(hours, cells, f, mask, head + 3, worst, acc);
  uint64_t checksum = 0;
  for (int h = 0; h < hours; h++) {
    const uint8_t *rec = acc + (size_t)h * REC_BYTES;
    for (int i = 0; i < REC_BYTES; i += 4) { uint32_t v; memcpy(&v, rec + i, 4); checksum = checksum * 31 + v; }
  }
  printf("{\"checksum\": \"%llu\", \"cpu_ms_per_chunk\": [", (unsigned long long)checksum);
  for (int r = 0; r < rounds; r++) {
    double cpu = 0;
    for (int c = 0; c < chunks; c++) {
      const double t0 = cpu_ms();
      accumulate(hours, cells, f + 6 * c, mask, head + 3, worst, acc);
      cpu += cpu_ms() - t0;
    }
    printf("%s%.6f", r ? ", " : "", cpu / chunks);
  }
  long long sink = 0;
  const double gbps = bandwidth((size_t)512 << 20, 5, &sink);
  printf("], \"bandwidth_gb_s\": %.3f, \"sink\": %lld}\n", gbps, sink & 1);
  return 0;
}
