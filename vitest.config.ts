import { defineConfig } from 'vitest/config';

// Tests mirror src/; they run against the TypeScript sources, except where a worker thread needs the compiled
// dist/ (the test script builds first). Generous time-outs: data fixtures are generated once per run.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    globalSetup: ['test/global-setup.ts'],
  },
});
