import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../db/database.js';
import { SqliteKeyStore } from '../../keys/key-store.js';
import { generatePreset } from '../../model/generate.js';
import { presetPlans } from '../../model/presets.js';
import { MANIFEST_FILE } from '../../store/chunk-manifest.js';
import type { Command } from '../command.js';
import { SERVER_OPTIONS, serverConfig } from '../options.js';
import { runServer } from './serve.js';

const USAGE = `Usage: svc demo [--port N] [--host HOST] [--data DIR] [--db FILE]

The embedded default: generates the demo datasets into DIR (default data/demo) if they are missing, creates a demo
secret key with every product and metric, prints it once, and serves the API (as \`svc serve\`).`;

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

/** `svc demo`. */
export const demoCommand: Command = {
  path: ['demo'],
  summary: 'Generate demo data if missing, print a demo key and serve (the embedded default)',
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
    const db = openDatabase(config.dbFile);
    try {
      const { key } = new SqliteKeyStore(db).create({ type: 'sk', label: 'demo' }, new Date());
      console.log(`\nDemo secret key (shown once):\n\n  ${key}\n\nTry:\n  curl -H "Authorization: Bearer ${key}" ` +
        `"http://127.0.0.1:${config.port}/v1/historical/stats?lat=50.84675&lon=4.35224&radius=25"\n`);
    } finally {
      db.close();
    }
    return runServer(config);
  },
};
