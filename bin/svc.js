#!/usr/bin/env node
// The one CLI. Compiled sources live in dist/; `npm run build` produces them.
import { main } from '../dist/src/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => { console.error(err instanceof Error ? err.message : String(err)); process.exitCode = 1; },
);
