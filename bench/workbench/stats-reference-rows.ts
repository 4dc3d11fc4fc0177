/**
 * The statistics kernel's reference rows, notes and targets, from the interleaved analysis and the reference
 * measurements (stats-references.ts): the TypeScript reference and the C baseline as rows with their ratio to the
 * baseline (unpaired: measured after the rounds), the memory-bandwidth ceiling, phase B, wall clock, CPU ms per chunk,
 * and the targets (release ≥ 250 M per core, release ≥ 10 × the TypeScript reference, C ≤ 1.6 × release; the C target
 * reads "not measured", null, when the C baseline did not run).
 */
import { crossCheckNote, cTarget, targetWord } from '../kernels-claim.js';
import { KERNEL_CHUNK } from '../kernels-data.js';
import type { Analysis } from './ab-analysis.js';
import { median, summarize } from './statistics.js';
import type { StatsReferences } from './stats-references.js';

/** Targets of the statistics kernel. */
const STATS_TARGET = { release: 250, releaseOverTs: 10, cOverRelease: 1.6 } as const;
const BYTES_PER_CELL_HOUR = 12;

/** Reference rows, notes, targets (true, false, or null when not measured) and figures for the JSON. */
export function statsReferenceRows(a: Analysis, wallRates: Readonly<Record<string, readonly number[]>>, refs: StatsReferences) {
  const base = a.throughput[a.baseline]!.median;
  const release = a.throughput.release?.median;
  const ts = summarize(refs.tsRates);
  const c = refs.native.rates.length ? summarize(refs.native.rates) : undefined;
  const row = (variant: string, s: { median: number; min: number; mad: number }): Record<string, string> => ({
    variant, 'median M cell-h/s': s.median.toFixed(1), min: s.min.toFixed(1), MAD: s.mad.toFixed(1),
    ratio: `${(s.median / base).toFixed(3)}×`, verdict: 'reference (after the rounds)',
  });
  const rows = [row('TypeScript reference (decoded f32)', ts)];
  if (c) rows.push(row('C baseline (child process)', c));
  const ceiling = refs.native.bandwidthGBs !== undefined ? (refs.native.bandwidthGBs * 1e3) / BYTES_PER_CELL_HOUR : undefined;
  if (ceiling !== undefined) rows.push({ variant: `memory-bandwidth ceiling (${refs.native.bandwidthGBs!.toFixed(1)} GB/s)`, 'median M cell-h/s': ceiling.toFixed(0) });

  const ratios = {
    release_over_ts: release !== undefined ? release / ts.median : null,
    c_over_release: c && release !== undefined ? c.median / release : null,
    release_over_scalar: release !== undefined && a.throughput.scalar ? release / a.throughput.scalar.median : null,
  };
  const check = { agreed: Object.keys(refs.phaseBMs).filter((n) => n !== 'TypeScript reference'), checksum: refs.checksum, cRuns: refs.cRuns, ...(refs.native.unavailable ? { cUnavailable: refs.native.unavailable } : {}) };
  const targets: Record<string, boolean | null> = {
    release_at_least_250M: release !== undefined && release >= STATS_TARGET.release,
    release_over_ts_at_least_10: ratios.release_over_ts !== null && ratios.release_over_ts >= STATS_TARGET.releaseOverTs,
    c_over_release_at_most_1_6: cTarget(check, ratios.c_over_release !== null && ratios.c_over_release <= STATS_TARGET.cOverRelease),
  };
  const msPerChunk = (rate: number): string => ((KERNEL_CHUNK.hours * KERNEL_CHUNK.cells) / 1e6 / rate * 1e3).toFixed(3);
  const perChunk = [
    ...Object.entries(a.throughput).filter(([n]) => !n.endsWith('(A/A)')).map(([n, s]) => `${n} ${msPerChunk(s.median)}`),
    `TypeScript reference ${msPerChunk(ts.median)}`, ...(c ? [`C ${msPerChunk(c.median)}`] : []),
  ];
  const wall = wallRates.release?.length ? median(wallRates.release) : undefined;
  const fmt = (v: number | null, digits: number): string => (v === null ? 'n/a' : v.toFixed(digits));
  const notes = [
    `Ratios: release/TypeScript ${fmt(ratios.release_over_ts, 1)} (target ≥ ${STATS_TARGET.releaseOverTs}), C/release ${fmt(ratios.c_over_release, 2)} ` +
      `(target ≤ ${STATS_TARGET.cOverRelease}), release/scalar ${fmt(ratios.release_over_scalar, 1)}.`,
    `Targets met: ${Object.entries(targets).map(([k, v]) => `${k} ${targetWord(v)}`).join(', ')}.`,
    `CPU ms per chunk (64 cells × 8760 h, phase A): ${perChunk.join(', ')}.`,
    ...(wall !== undefined ? [`Wall clock, release: ${wall.toFixed(1)} M cell-h/s (copies into kernel memory included; shared machine, CPU time is the per-core figure).`] : []),
    ceiling !== undefined
      ? `Memory bandwidth ${refs.native.bandwidthGBs!.toFixed(1)} GB/s (C, streaming 512 MiB) / ${BYTES_PER_CELL_HOUR} bytes per cell-hour = ${ceiling.toFixed(0)} M cell-h/s.`
      : `C baseline and bandwidth ceiling not measured: ${refs.native.unavailable ?? 'no runs'}.`,
    `Phase B (finish, full year, all blocks), CPU ms: ${Object.entries(refs.phaseBMs).map(([n, ms]) => `${n} ${ms.toFixed(2)}`).join(', ')}.`,
    'The TypeScript reference is phase A on already decoded float32 fields (decoding not counted).',
    crossCheckNote(check),
  ];
  const figures = {
    ts_reference: { rates: refs.tsRates, median: ts.median },
    c_baseline: { rates: refs.native.rates, bandwidth_gb_s: refs.native.bandwidthGBs ?? null, unavailable: refs.native.unavailable ?? null, compiler: refs.native.compiler ?? null },
    bandwidth_ceiling: ceiling ?? null, ratios, phase_b_ms: refs.phaseBMs, wall_release: wall ?? null,
    cross_check: { agreed: check.agreed, checksum: check.checksum, c_runs: check.cRuns, c_unavailable: refs.native.unavailable ?? null },
  };
  return { rows, notes, targets, figures };
}
