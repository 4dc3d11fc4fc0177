/**
 * What the kernels' boundary tests share: a wrapper that counts calls into a kernel's WebAssembly exports, so a test
 * can assert that a refused input was refused before any call into the kernel.
 */
import { expect } from 'vitest';
import type { DatasetError, ValidationError } from '../../src/errors.js';

/** Counts calls into the exports it wrapped. */
export class KernelCallCounter {
  /** Calls so far into every wrapped export. */
  calls = 0;

  /** A copy of `exports` whose functions count their calls, except the `constants` that only read constants. */
  wrap<Exports extends object>(exports: Exports, constants: ReadonlySet<string>): Exports {
    const entries = Object.entries(exports).map(([key, value]) => {
      if (typeof value !== 'function' || constants.has(key)) return [key, value];
      return [key, (...args: unknown[]) => {
        this.calls++;
        return (value as (...a: unknown[]) => unknown)(...args);
      }];
    });
    return Object.fromEntries(entries) as Exports;
  }

  /** Asserts that `action` throws `type` and made no kernel call (bound: may be taken off the counter). */
  readonly refused = (action: () => unknown, type: typeof ValidationError | typeof DatasetError): void => {
    const before = this.calls;
    expect(action).toThrow(type);
    expect(this.calls).toBe(before);
  };
}
