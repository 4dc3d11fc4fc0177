/**
 * A terminal progress bar with rate and ETA. On a TTY it redraws one line; elsewhere (CI, pipes) it prints a line at
 * most every `plainEveryMs` so logs stay readable.
 */
export interface Progress {
  /** Adds `n` finished units. */
  tick(n?: number): void;
  /** Prints the final line. */
  done(): void;
}

/** Formats seconds as `1m05s` or `12s`. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--';
  const s = Math.round(seconds);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** Creates a progress bar for `total` units labelled `label`, written to `stream` (stderr by default). */
export function createProgress(
  label: string,
  total: number,
  options: { stream?: NodeJS.WriteStream; plainEveryMs?: number; now?: () => number } = {},
): Progress {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? (() => performance.now());
  const plainEveryMs = options.plainEveryMs ?? 2000;
  const start = now();
  let doneUnits = 0;
  let lastPlain = -Infinity;

  const line = (): string => {
    const fraction = total > 0 ? Math.min(1, doneUnits / total) : 1;
    const width = 30;
    const filled = Math.round(fraction * width);
    const elapsed = (now() - start) / 1000;
    const eta = fraction > 0 ? (elapsed * (1 - fraction)) / fraction : Number.NaN;
    const bar = `${'#'.repeat(filled)}${'-'.repeat(width - filled)}`;
    return `${label} [${bar}] ${(fraction * 100).toFixed(0).padStart(3)}% ${doneUnits}/${total} elapsed ${formatDuration(elapsed)} ETA ${formatDuration(eta)}`;
  };

  return {
    tick(n = 1) {
      doneUnits += n;
      if (stream.isTTY) {
        stream.write(`\r${line()}`);
      } else if (now() - lastPlain >= plainEveryMs) {
        lastPlain = now();
        stream.write(`${line()}\n`);
      }
    },
    done() {
      stream.write(stream.isTTY ? `\r${line()}\n` : `${line()}\n`);
    },
  };
}
