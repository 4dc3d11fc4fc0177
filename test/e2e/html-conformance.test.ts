/**
 * The pages the service shows people are conforming HTML by the Nu HTML Checker (vnu, the W3C validator's engine):
 * the API reference, the error catalogue, the map page and an HTML report made by the reports product, as the running
 * service serves them, and the service's own stylesheets of those pages (MapLibre's is a vendor file, not checked).
 * One Java process checks every file (5 to 10 s on 2 cores), with Java 17 or later from PATH (Debian's): vnu-jar's
 * own helper would download a runtime where none is installed. Skipped, saying so, only when java is absent and `CI`
 * is unset (scripts/system-deps.sh installs it).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2eServer, type E2eServer } from './support/e2e-server.js';
import { reportPage, servedPages } from './support/shown-pages.js';

/** The checker's jar: the package's main module exports its path (requiring it starts nothing). */
const VNU_JAR = String(createRequire(import.meta.url)('vnu-jar'));
const hasJava = (() => {
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const runs = hasJava || process.env.CI !== undefined;
if (!runs) console.warn('HTML conformance test skipped: java is absent (install default-jre-headless; CI always runs it)');

/** One message of the checker's JSON output. */
interface VnuMessage {
  readonly type: 'error' | 'info' | 'non-document-error';
  readonly subType?: string;
  readonly url?: string;
  readonly lastLine?: number;
  readonly message: string;
  readonly extract?: string;
}

/** Checks `files` in one run; the JSON report is on stderr, and the exit status is 1 when there are errors. */
function vnu(files: readonly string[]): Promise<VnuMessage[]> {
  return new Promise((resolve, reject) => {
    execFile('java', ['-jar', VNU_JAR, '--format', 'json', '--also-check-css', ...files], { maxBuffer: 64 << 20 }, (err, _stdout, stderr) => {
      try {
        resolve((JSON.parse(stderr) as { messages: VnuMessage[] }).messages);
      } catch {
        reject(err ?? new Error(`no report from vnu: ${stderr}`));
      }
    });
  });
}

let e2e: E2eServer;
let dir: string;
let files: string[];

describe.runIf(runs)('HTML conformance of the pages people see (Nu HTML Checker)', () => {
  beforeAll(async () => {
    e2e = await startE2eServer();
    dir = await mkdtemp(join(tmpdir(), 'svc-vnu-'));
    const pages = [...await servedPages(e2e), await reportPage(e2e, e2e.issue({ label: 'vnu reports', products: ['reports'] }))];
    const reference = pages.find((p) => p.name === 'reference')!.html;
    const sheets = [/<link rel="stylesheet" href="([^"]+)"/.exec(reference)![1]!.replace(/&amp;/g, '&'), '/map/map-page.css'];
    files = [];
    for (const page of pages) files.push(await save(`${page.name}.html`, page.html));
    for (const sheet of sheets) {
      const res = await fetch(`${e2e.base}${sheet}`);
      expect(res.status, sheet).toBe(200);
      files.push(await save(basename(new URL(sheet, e2e.base).pathname), await res.text()));
    }
  });
  afterAll(async () => {
    await e2e?.server.map.settled();
    await e2e?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  /** Writes `text` to `name` in the temporary directory; returns the path. */
  async function save(name: string, text: string): Promise<string> {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  }

  it('finds no error and no warning in the reference, the error catalogue, the map page, a report and their stylesheets', async () => {
    expect(files.map((f) => basename(f))).toEqual(['reference.html', 'errors.html', 'map.html', 'report.html', 'reference.css', 'map-page.css']);
    const messages = await vnu(files);
    // Only the checker's informational notes (type `info` without the `warning` subtype) are let through: they state
    // facts about the markup (such as a trailing slash on a void element having no effect), not faults. Errors,
    // warnings and files it could not check all fail the test.
    const faults = messages
      .filter((m) => !(m.type === 'info' && m.subType !== 'warning'))
      .map((m) => `${m.type}${m.subType ? `/${m.subType}` : ''} ${basename(m.url ?? '')}:${m.lastLine ?? '?'}: ${m.message} [${m.extract ?? ''}]`);
    expect(faults).toEqual([]);
  });
});
