/**
 * What the kernel workbench may claim about the agreement of its variants, and about the targets that need the C
 * baseline. The variants run are always compared with the release build before timing (the gate); the C baseline
 * (bench/native/stats_kernel.c, compiled with the system compiler) only when it compiled and ran — when it did not,
 * the claim says so and names why, instead of reporting an agreement that was never checked.
 */

/** How the cross-check went. */
export interface CrossCheck {
  /** The variants found bit-identical (release first), as named in the claim. */
  readonly agreed: readonly string[];
  /** Checksum of the release build's accumulators on the check chunk. */
  readonly checksum: string;
  /** Runs of the C baseline whose checksum was compared with the kernel's (each must have matched). */
  readonly cRuns: number;
  /** Why the C baseline did not run (compiler missing, compile or run failure); absent when it ran. */
  readonly cUnavailable?: string;
}

/** The note stating which variants were compared and found equal. */
export function crossCheckNote(check: CrossCheck): string {
  if (check.cRuns > 0) {
    return `Accumulators cross-checked: ${[...check.agreed, 'C'].join(' = ')} (checksum ${check.checksum}; C compared on ${check.cRuns} runs).`;
  }
  const why = check.cUnavailable ?? 'it was not run';
  const only = check.agreed.length > 1 ? `${check.agreed.join(' = ')} only` : `${check.agreed[0] ?? 'release'} alone`;
  return `Accumulators cross-checked: ${only} (checksum ${check.checksum}); the C baseline was not compared: ${why}.`;
}

/** A target that needs the C baseline: its outcome, or null (not measured) when C did not run. */
export function cTarget(check: CrossCheck, met: boolean): boolean | null {
  return check.cRuns > 0 ? met : null;
}

/** A target's outcome in words: yes, NO, or not measured. */
export function targetWord(met: boolean | null): string {
  return met === null ? 'not measured' : met ? 'yes' : 'NO';
}
