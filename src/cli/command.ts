/** A `svc` sub-command. `run` returns the process exit code; bad input throws a ServiceError with a clear message. */
export interface Command {
  /** Words after `svc` that select this command, e.g. `['data', 'generate']`. */
  readonly path: readonly string[];
  /** One line shown in `svc help`. */
  readonly summary: string;
  /** Usage text shown on `--help`; after a usage error its first paragraph, the synopsis (src/cli/main.ts). */
  readonly usage: string;
  run(args: string[]): Promise<number>;
}
