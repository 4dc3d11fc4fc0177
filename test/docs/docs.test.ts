/**
 * The repository's documentation stands alone and agrees with the code: it cites no document outside the repository,
 * every relative link (and heading anchor) resolves, docs/api.md has a section for every endpoint the service serves,
 * and numbers the code fixes are stated as the code fixes them.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, type OpenApiDocument } from '../../src/reference/openapi-types.js';
import { ENV_VARS } from '../../src/config.js';
import { DISTANCE_DECIMALS } from '../../src/sampling/sampling.js';
import { PRECOMPUTE_GRIDS } from '../../src/stats/atlas-figures.js';
import { presetPlans } from '../../src/model/presets.js';
import { openApiHarness, type LiveHarness } from '../api/live-harness.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const read = (page: string) => readFileSync(join(ROOT, page), 'utf8');

/** The anchor a Markdown renderer gives a heading: lower case, punctuation dropped, spaces as dashes. */
function anchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
}

function headings(text: string): string[] {
  return [...text.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1]!);
}

describe('the documentation', () => {
  it('cites no document outside the repository', () => {
    const outside = /DESIGN|STYLE\.md|domain\.md|interface\.md|\/work\/shared|§/;
    for (const page of PAGES) {
      const lines = read(page).split('\n');
      const citing = lines.map((line, i) => `${page}:${i + 1}: ${line}`).filter((line) => outside.test(line.slice(line.indexOf(': ') + 2)));
      expect(citing).toEqual([]);
    }
  });

  it('links only to files and headings that exist', () => {
    for (const page of PAGES) {
      const text = read(page).replace(/```[\s\S]*?```/g, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue; // absolute URLs (none expected, but not files)
        const [file, hash] = target.split('#') as [string, string | undefined];
        const path = file === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), file);
        expect(existsSync(path), `${page} → ${target}`).toBe(true);
        if (hash !== undefined && path.endsWith('.md')) {
          expect(headings(readFileSync(path, 'utf8')).map(anchor), `${page} → ${target}`).toContain(hash);
        }
      }
    }
  });

  it('keeps the README’s two commands', () => {
    const readme = read('README.md');
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
  });

  it('documents every configuration variable in the configuration table of docs/operations.md', () => {
    const table = read('docs/operations.md').split('## Configuration')[1]!.split('\n## ')[0]!;
    const rows = new Set([...table.matchAll(/^\| `(SVC_[A-Z_]+)` \|/gm)].map((m) => m[1]));
    expect(Object.values(ENV_VARS).filter((name) => !rows.has(name))).toEqual([]);
  });

  it('states distance_m to the decimals the code publishes', () => {
    expect(read('docs/statistics.md')).toContain(`\`distance_m\` to ${DISTANCE_DECIMALS} `);
  });

  it('sizes a precompute row band as the code makes it, with one max_payload threshold under which any band fits', () => {
    const page = read('docs/cluster.md');
    const chunkRows = [...new Set((['demo', 'fixture', 'bench'] as const).flatMap((p) => presetPlans(p).map((d) => d.chunkCells)))];
    expect(chunkRows).toHaveLength(1);
    const perCell = PRECOMPUTE_GRIDS.length * 4 * chunkRows[0]!;
    expect(page).toContain(`${PRECOMPUTE_GRIDS.length} grids × 4 bytes × ${chunkRows[0]} rows = ${perCell} bytes per cell of the width`);
    // The prose and the configuration table name one width, and below it even an uncompressed band (plus its header,
    // about 2 KB) fits under NATS' default max_payload less the 4 KiB both sides keep free.
    const widths = new Set([...page.matchAll(/grids over ([\d,]+) cells wide/g)].map((m) => m[1]!));
    expect([...widths]).toHaveLength(1);
    const width = Number([...widths][0]!.replace(/,/g, ''));
    expect(width * perCell + 2048).toBeLessThanOrEqual(1_048_576 - 4_096);
  });
});

describe('docs/api.md', () => {
  let h: LiveHarness;
  let doc: OpenApiDocument;
  beforeAll(async () => {
    ({ h, doc } = await openApiHarness());
  });
  afterAll(async () => h.close());

  it('has a section for every endpoint the service serves, the OpenAPI document and the docs pages included', () => {
    const documented = new Set(
      headings(read('docs/api.md')).flatMap((heading) => [...heading.matchAll(/`([A-Z]+) ([^`]+)`/g)].map((m) => `${m[1]} ${m[2]}`)),
    );
    const served = [...operations(doc).map((o) => `${o.method.toUpperCase()} ${o.path}`), 'GET /v1/openapi.json', 'GET /docs', 'GET /docs/errors'];
    expect(served.filter((endpoint) => !documented.has(endpoint))).toEqual([]);
  });
});
