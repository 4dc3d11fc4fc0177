import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Tests mirror src/; they run against the TypeScript sources, except where a worker thread needs the compiled
// dist/ (the test script builds first). Generous time-outs: data fixtures are generated once per run. Two test files
// at least run at once: much of the suite waits on servers, child processes and NATS rather than computing, so on two
// cores two files take 0.63 of the time one at a time does (vitest's default there is one).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    globalSetup: ['test/global-setup.ts'],
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
