/**
 * Resident memory of a process from /proc/<pid>/status, in MiB: `VmRSS` (now) and `VmHWM` (the peak since the process
 * started, all threads together). Linux only; elsewhere the figures are NaN.
 */
import { readFileSync } from 'node:fs';

function statusKb(pid: number | 'self', field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s*(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Resident memory now, MiB. */
export function residentMb(pid: number | 'self' = 'self'): number {
  return statusKb(pid, 'VmRSS') / 1024;
}

/** Peak resident memory since the process started, MiB. */
export function peakResidentMb(pid: number | 'self' = 'self'): number {
  return statusKb(pid, 'VmHWM') / 1024;
}
