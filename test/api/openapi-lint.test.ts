/**
 * What client generators and checkers read is clean: the published OpenAPI document (every endpoint, live ones
 * included) passes Redocly's `recommended` ruleset with no error and no warning. Redocly CLI, a pinned dev dependency,
 * lints the document written to a temporary directory whose redocly.yaml names the ruleset, so no configuration
 * elsewhere can change it; its telemetry and update notices are off (the test calls nothing outside the machine).
 * The operationIds are pinned too: generated clients name their methods after them, so renaming one breaks clients.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LICENCE_NAME } from '../../src/reference/published-document.js';
import { operations, type OpenApiDocument } from '../../src/reference/openapi-types.js';
import { openApiHarness, type LiveHarness } from './live-harness.js';

const REDOCLY = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
const CONFIG = 'extends:\n  - recommended\ntelemetry: off\n';

/** One problem as Redocly's JSON output lists it. */
interface LintProblem {
  readonly ruleId: string;
  readonly severity: string;
  readonly message: string;
  readonly location: readonly { readonly pointer: string }[];
}

/** Redocly's JSON output. */
interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number; readonly ignored: number };
  readonly problems: readonly LintProblem[];
}

/** Lints `doc` with the CLI; its exit status is 1 when it finds errors, so the report is read from stdout either way. */
function lint(dir: string): Promise<LintReport> {
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [REDOCLY, 'lint', '--format=json', 'openapi.json'], { cwd: dir, env, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      try {
        resolve(JSON.parse(stdout) as LintReport);
      } catch {
        reject(err ?? new Error(`no report from redocly: ${stderr}`));
      }
    });
  });
}

let h: LiveHarness;
let doc: OpenApiDocument;
let dir: string;
beforeAll(async () => {
  ({ h, doc } = await openApiHarness());
  dir = await mkdtemp(join(tmpdir(), 'svc-openapi-lint-'));
  await writeFile(join(dir, 'openapi.json'), JSON.stringify(doc));
  await writeFile(join(dir, 'redocly.yaml'), CONFIG);
});
afterAll(async () => {
  await h?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('GET /v1/openapi.json under Redocly\'s recommended ruleset', () => {
  it('has no error and no warning', async () => {
    const report = await lint(dir);
    const found = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(found).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });

  it('names every operation with its stable operationId (generated clients name their methods after it)', () => {
    const ids = Object.fromEntries(operations(doc).map((o) => [`${o.method.toUpperCase()} ${o.path}`, o.op.operationId]));
    expect(ids).toEqual({
      'GET /v1/health': 'getHealth',
      'GET /v1/cities': 'listCities',
      'GET /v1/cities/{city}': 'getCity',
      'GET /v1/scales': 'listScales',
      'GET /v1/scales/{scale}': 'getScale',
      'GET /v1/key': 'getKey',
      'GET /v1/geocode': 'geocodeAddress',
      'GET /v1/historical/stats': 'getHistoricalStats',
      'POST /v1/historical/area': 'postHistoricalArea',
      'GET /v1/realtime': 'getRealtimeRecords',
      'GET /v1/forecast': 'getForecastRecords',
      'POST /v1/historical/batch': 'postHistoricalBatch',
      'POST /v1/historical/jobs': 'createHistoricalJob',
      'GET /v1/historical/jobs/{job_id}': 'getHistoricalJob',
      'GET /v1/historical/jobs/{job_id}/download': 'downloadHistoricalJob',
      'POST /v1/reports': 'createReport',
      'GET /v1/reports/{job_id}': 'getReportStatus',
      'GET /v1/reports/{job_id}/download': 'downloadReport',
      'GET /v1/map/{city}': 'getMapCatalog',
      'GET /v1/map/{city}/tiles/{layer}/{timestamp}.json': 'getLiveTileJson',
      'GET /v1/map/{city}/tiles/{layer}/{timestamp}/{z}/{x}/{y}.mvt': 'getLiveTile',
      'GET /v1/map/{city}/tiles/forecast/{layer}/{timestamp}.json': 'getForecastTileJson',
      'GET /v1/map/{city}/tiles/forecast/{layer}/{timestamp}/{z}/{x}/{y}.mvt': 'getForecastTile',
      'GET /v1/map/{city}/tiles/{static}.json': 'getStaticTileJson',
      'GET /v1/map/{city}/tiles/{static}/{z}/{x}/{y}.mvt': 'getStaticTile',
    });
  });

  it('states the licence, which points at the terms in the reference', async () => {
    const docsUrl = doc.externalDocs!.url;
    expect(doc.info.license).toEqual({ name: LICENCE_NAME, url: `${docsUrl}#terms` });
    const reference = await h.app.inject({ url: new URL(docsUrl).pathname });
    expect(reference.body).toContain('<section class="topic" id="terms">');
    expect(reference.body).toContain(`Licence: ${LICENCE_NAME}.`);
  });
});
