/**
 * The one error of the workbench: a variant, revision or option refused before or instead of timing (bad variant
 * folder, asc rejecting a flag, layout mismatch, a wrong answer). `npm run bench` prints its one-line reason and exits 2.
 */
export class WorkbenchRefusal extends Error {
  /** Exit status of a refusal. */
  readonly exitCode = 2;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WorkbenchRefusal';
  }
}
