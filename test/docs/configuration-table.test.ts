/**
 * The configuration table of docs/operations.md is the one the settings table (src/config/settings.ts) renders, row
 * for row, so the page cannot drift from the code: a setting added, renamed, given another default or range shows up
 * here as a difference, with the expected table in the failure to paste.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configurationTable } from '../../src/config/markdown.js';
import { PROJECT_ROOT } from '../../src/util/paths.js';

/** The lines of the first table under `## Configuration` in docs/operations.md. */
function documentedTable(): string {
  const page = readFileSync(join(PROJECT_ROOT, 'docs/operations.md'), 'utf8');
  const section = page.split('\n## Configuration\n')[1]!.split('\n## ')[0]!.split('\n');
  const start = section.findIndex((line) => line.startsWith('| Variable |'));
  expect(start, 'docs/operations.md has no configuration table').toBeGreaterThanOrEqual(0);
  let end = start;
  while (end < section.length && section[end]!.startsWith('|')) end++;
  return section.slice(start, end).join('\n');
}

describe('docs/operations.md', () => {
  it('holds the configuration table rendered from src/config/settings.ts', () => {
    expect(documentedTable()).toBe(configurationTable());
  });
});
