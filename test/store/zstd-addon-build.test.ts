/**
 * The native zstd addon survives the end of the thread that calls it. zstd-napi's methods go through node-addon-api 7
 * with C++ exceptions and NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS; a call made while its worker thread is being
 * terminated fails inside Node-API, and only at Node-API level 8 (what the addon declares) is that failure one the
 * library swallows. Built at Node 24's own level (10) the C++ exception escapes a noexcept callback and std::terminate
 * aborts the whole process ("terminate called after throwing an instance of 'Napi::Error'"). The project's .npmrc sets
 * `napi_build_version=8`; a node_modules installed before it needs `npm rebuild zstd-napi`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const ADDON_DIR = dirname(require.resolve('zstd-napi/binding.js'));

/** The gyp variables node-gyp configured the addon's build with (build/config.gypi: JSON after `#` comment lines). */
function buildVariables(): Record<string, unknown> {
  const text = readFileSync(join(ADDON_DIR, 'build', 'config.gypi'), 'utf8');
  const json = text.split('\n').filter((line) => !line.startsWith('#')).join('\n');
  return (JSON.parse(json) as { variables: Record<string, unknown> }).variables;
}

/**
 * Two threads decode in a loop (one a valid frame, one a corrupt frame that throws each time) and are terminated
 * mid-loop, `cycles` times; the process prints `survived` unless a termination aborts it.
 */
const TERMINATE_WHILE_DECODING = `
const { Worker } = require('node:worker_threads');
const thread = (corrupt) => \`
  const { parentPort } = require('node:worker_threads');
  const binding = require(\${JSON.stringify(process.argv[1] + '/binding.js')});
  const { Compressor } = require(\${JSON.stringify(process.argv[1])});
  const raw = new Uint8Array(1 << 20).map((_, i) => (i * 7) ^ (i >> 9));
  const frame = new Compressor().compress(raw);
  if (\${corrupt}) frame[frame.length >> 1] ^= 0xff;
  const dctx = new binding.DCtx();
  parentPort.postMessage('decoding');
  for (;;) { try { dctx.decompress(raw, frame); } catch {} }
\`;
(async () => {
  for (let i = 0; i < Number(process.argv[2]); i++) {
    const threads = [false, true].map((corrupt) => new Worker(thread(corrupt), { eval: true }));
    await Promise.all(threads.map((t) => new Promise((resolve) => t.once('message', resolve))));
    await Promise.all(threads.map((t) => t.terminate()));
  }
  console.log('survived');
})();
`;

describe('zstd-napi build', () => {
  it('is built at the Node-API level it declares (8), not the runtime level', () => {
    expect(String(buildVariables().napi_build_version)).toBe('8');
  });

  it('lets threads that are decoding (valid and corrupt frames) be terminated without aborting the process', () => {
    // Built at level 10, every run of 20 cycles aborted here (SIGABRT); the assertion is on the outcome, not on time.
    const run = spawnSync(process.execPath, ['-e', TERMINATE_WHILE_DECODING, ADDON_DIR, '20'], { encoding: 'utf8' });
    expect({ signal: run.signal, status: run.status, stderr: run.stderr }).toEqual({ signal: null, status: 0, stderr: '' });
    expect(run.stdout.trim()).toBe('survived');
  });
});
