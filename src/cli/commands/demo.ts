/**
 * `svc demo`, what `npm start` runs: demo data when missing, the demo city's precompute when missing or not current
 * (so the annual map layers are there), the demo key (src/cli/demo-key.ts), then the server, with a banner saying
 * where the documentation is and how to make a first request.
 */
import { access } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../db/database.js';
import { SqliteKeyStore } from '../../keys/key-store.js';
import { streetLevelCities } from '../../cities/catalog.js';
import { createLocalCompute } from '../../compute/local-compute.js';
import { generatePreset } from '../../model/generate.js';
import { precomputeCity, precomputeNeed } from '../../services/precompute.js';
import { precomputeBar } from '../precompute-bar.js';
import { presetPlans } from '../../model/presets.js';
import { MANIFEST_FILE } from '../../store/chunk-manifest.js';
import type { Command } from '../command.js';
import { DEMO_KEY_FILE, DEMO_PAGE_KEY_FILE, ensureDemoKey, ensureDemoPageKey, type DemoKey } from '../demo-key.js';
import { SERVER_OPTIONS, serverConfig } from '../options.js';
import { runServer, type Listening } from './serve.js';

const USAGE = `Usage: svc demo [--port N] [--host HOST] [--data DIR] [--db FILE]

The embedded default: generates the demo datasets into DIR (default data/demo) if they are missing, precomputes the
demo city's annual figures (\`svc precompute\`, seconds) when it has no current precompute, so the annual map layers are
there, and serves the API (as \`svc serve\`) with a demo secret key that has every product and metric. The key is made on the first start and
kept in DIR/${DEMO_KEY_FILE} (readable only by you); later starts print the same key, or a new one, saying why, when
the stored key no longer works (new database, deactivated, expired).

It also prints the address of the map page with a publishable key (product map, allowed from the local origins the
server answers at) in the URL fragment; that key is kept in DIR/${DEMO_PAGE_KEY_FILE} the same way.`;

/** True when every demo dataset is present (its consolidated metadata exists). */
async function demoDataPresent(dataDir: string): Promise<boolean> {
  const checks = presetPlans('demo').map((p) => access(join(dataDir, p.id, '.zmetadata')));
  return Promise.all(checks).then(() => true, () => false);
}

/** Demo datasets written before chunk manifests existed (the server will not serve them until they have one). */
async function demoDataWithoutManifest(dataDir: string): Promise<string[]> {
  const ids = presetPlans('demo').map((p) => p.id);
  const present = await Promise.all(ids.map((id) => access(join(dataDir, id, MANIFEST_FILE)).then(() => true, () => false)));
  return ids.filter((_, i) => !present[i]);
}

/** Precomputes each demo city whose precompute is missing or not current (the annual map layers need one). */
async function ensureDemoPrecompute(dataDir: string, threads: number): Promise<void> {
  const demoDatasets = new Set(presetPlans('demo').map((p) => p.id));
  for (const city of streetLevelCities().filter((c) => demoDatasets.has(c.dataset))) {
    const need = await precomputeNeed(dataDir, city);
    if (need === undefined) continue;
    console.log(`Precomputing the annual figures of ${city.name} for its map layers (${need}; seconds)…`);
    const compute = await createLocalCompute({ dataDir, threads });
    try {
      const bar = precomputeBar(city.dataset);
      await precomputeCity(compute, dataDir, city, bar);
      bar.done();
    } finally {
      await compute.close();
    }
  }
}

/** A path as the user is likely to type it: relative to the working directory when inside it. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel !== '' && !rel.startsWith('..') ? rel : path;
}

/** The map page's address with a publishable key in the fragment (never sent to a server, so never in a log). */
export function mapPageUrl(origin: string, pageKey: string): string {
  return `${origin}/map/#key=${pageKey}`;
}

/** The local origins a browser on this machine uses to reach the server at `origin` (both loopback names). */
export function localOrigins(origin: string): string[] {
  const url = new URL(origin);
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost';
  return loopback ? [`${url.protocol}//127.0.0.1:${url.port}`, `${url.protocol}//localhost:${url.port}`] : [url.origin];
}

/** The banner printed once the server listens: the demo key and how to use it, and the map page's address. */
export function demoBanner(demo: DemoKey, at: Listening, page?: DemoKey): string {
  const file = shown(demo.file);
  let intro: string;
  if (demo.outcome === 'replaced') intro = `The stored demo key no longer works (${demo.reason}); a new one was created and kept in ${file}:`;
  else if (demo.outcome === 'created') intro = `Demo secret key, created now and kept in ${file} (readable only by you); later starts print it again:`;
  else intro = `Demo secret key (kept in ${file}, readable only by you):`;
  return [
    '',
    intro,
    '',
    `  ${demo.key}`,
    '',
    'Try:',
    `  export BASE_URL=${at.origin}/v1 KEY=${demo.key}`,
    '  curl -s -H "Authorization: Bearer $KEY" "$BASE_URL/historical/stats?lat=50.84675&lon=4.35224&radius=25"',
    '',
    `Every endpoint, with examples: ${at.docsUrl}`,
    ...(page === undefined ? [] : [
      '',
      `Map page (publishable key for this origin, kept in ${shown(page.file)}${page.outcome === 'replaced' ? `; new: ${page.reason}` : ''}):`,
      `  ${mapPageUrl(at.origin, page.key)}`,
    ]),
    '',
  ].join('\n');
}

/** `svc demo`. */
export const demoCommand: Command = {
  path: ['demo'],
  summary: 'Generate demo data if missing, serve with a demo key (kept between starts): the embedded default',
  usage: USAGE,
  async run(args) {
    const { values } = parseArgs({ args, strict: true, options: SERVER_OPTIONS });
    const config = serverConfig(values);
    if (!(await demoDataPresent(config.dataDir))) {
      console.log(`Generating the demo datasets into ${config.dataDir} (once; about a minute on 2 cores)…`);
      await generatePreset({ preset: 'demo', outDir: config.dataDir, seed: 1 });
    }
    const unlisted = await demoDataWithoutManifest(config.dataDir);
    if (unlisted.length > 0) {
      console.log(`The demo datasets ${unlisted.join(', ')} were written before chunk manifests existed and are not served ` +
        `until they have one: run \`svc data verify ${config.dataDir} --write-manifest\`, or delete ${config.dataDir} to regenerate.`);
    }
    await ensureDemoPrecompute(config.dataDir, config.computeThreads);
    const db = openDatabase(config.dbFile);
    let demo: DemoKey;
    try {
      demo = await ensureDemoKey(config.dataDir, new SqliteKeyStore(db), new Date());
    } finally {
      db.close();
    }
    // The page key's allowlist names the port, known only once the server listens.
    return runServer(config, async (at) => {
      const pageDb = openDatabase(config.dbFile);
      let page: DemoKey;
      try {
        page = await ensureDemoPageKey(config.dataDir, new SqliteKeyStore(pageDb), localOrigins(at.origin), new Date());
      } finally {
        pageDb.close();
      }
      console.log(demoBanner(demo, at, page));
    });
  },
};
