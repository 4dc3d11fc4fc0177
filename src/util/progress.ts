/**
 * A terminal progress bar with rate and ETA. On a TTY it redraws one line; elsewhere (CI, pipes) it prints a line at
 * most every `plainEveryMs` so logs stay readable.
 */
export interface Progress {
  /** Adds `n` finished units. */
  tick(n?: number): void;
  /**
   * Shows `text` after the counts (a condition the user should know of, e.g. a lost connection) until it is replaced
   * or cleared with undefined; off a TTY a changed note is printed at once when it appears or clears, else throttled.
   */
  note(text: string | undefined): void;
  /** Prints the final line. */
  done(): void;
}

/** Formats seconds as `1m05s` or `12s`. */
function formatDuration(seconds: number): string {
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
  let noted: string | undefined;

  const line = (): string => {
    const fraction = total > 0 ? Math.min(1, doneUnits / total) : 1;
    const width = 30;
    const filled = Math.round(fraction * width);
    const elapsed = (now() - start) / 1000;
    const eta = fraction > 0 ? (elapsed * (1 - fraction)) / fraction : Number.NaN;
    const bar = `${'#'.repeat(filled)}${'-'.repeat(width - filled)}`;
    const counts = `${label} [${bar}] ${(fraction * 100).toFixed(0).padStart(3)}% ${doneUnits}/${total}`;
    return `${counts} elapsed ${formatDuration(elapsed)} ETA ${formatDuration(eta)}${noted === undefined ? '' : ` - ${noted}`}`;
  };
  // On a TTY the line is redrawn in place; `\x1b[K` clears what a longer line (with a note) left behind.
  const redraw = (): void => {
    stream.write(`\r${line()}\x1b[K`);
  };

  return {
    tick(n = 1) {
      doneUnits += n;
      if (stream.isTTY) {
        redraw();
      } else if (now() - lastPlain >= plainEveryMs) {
        lastPlain = now();
        stream.write(`${line()}\n`);
      }
    },
    note(text) {
      if (text === noted) return;
      const appearsOrClears = (text === undefined) !== (noted === undefined);
      noted = text;
      if (stream.isTTY) {
        redraw();
      } else if (appearsOrClears || now() - lastPlain >= plainEveryMs) {
        lastPlain = now();
        stream.write(`${line()}\n`);
      }
    },
    done() {
      stream.write(stream.isTTY ? `\r${line()}\n` : `${line()}\n`);
    },
  };
}
