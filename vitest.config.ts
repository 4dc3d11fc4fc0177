import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files that measure the heap (test/helpers/heap-growth.ts): they need a process of their own, since what other
 * files leave behind (a pool's buffers released as its threads close) would be counted as theirs.
 */
const MEASURE_THE_HEAP = ['test/util/heap-size.test.ts', 'test/services/memory-stats-cache.test.ts', 'test/api/stats-responses.test.ts'];

// Tests mirror src/; they run against the TypeScript sources, except where a worker thread needs the compiled
// dist/ (the test script builds first). Generous time-outs: data fixtures are generated once per run. Two test files
// at least run at once: much of the suite waits on servers, child processes and NATS rather than computing, so on two
// cores two files take 0.63 of the time one at a time does (vitest's default there is one).
//
// Test files share their worker's module graph (`isolate: false`): starting a process and importing the sources anew
// for each of 250 files cost about a fifth of the suite. No test relies on a fresh module (none mocks modules or sets
// process.env; each builds its own servers, pools and stores and closes them); a test that measures the heap runs
// isolated. A test file must leave no state behind at module level that another could see.
export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 300_000,
    globalSetup: ['test/global-setup.ts'],
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: MEASURE_THE_HEAP, isolate: false } },
      { extends: true, test: { name: 'isolated', include: MEASURE_THE_HEAP, isolate: true } },
    ],
  },
});
