/**
 * Report files in a directory: the report files contract (test/contracts/report-files-contract.ts), and what only a
 * directory does: a file appears only under its final name (temporary name, fsync, rename), temporaries left by a
 * killed process are removed on open, and only job ids become paths.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DirectoryReportFiles } from '../../../src/reports/jobs/report-files.js';
import { describeReportFiles } from '../../contracts/report-files-contract.js';

const ID = '0a4a4397-19f0-416d-a32c-800056678b80';
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-report-files-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

describeReportFiles('DirectoryReportFiles', async () => {
  const root = await mkdtemp(join(tmpdir(), 'svc-report-files-contract-'));
  return { files: await DirectoryReportFiles.open(join(root, 'reports')), close: () => rm(root, { recursive: true, force: true }) };
});

describe('DirectoryReportFiles', () => {
  it('keeps a file under its final name only, with nothing left beside it', async () => {
    const files = await DirectoryReportFiles.open(join(dir, 'reports'));
    await files.write(ID, 'html', new TextEncoder().encode('<p>v1</p>'));
    await files.write(ID, 'html', new TextEncoder().encode('<p>v2</p>'));
    expect(await readFile(files.path(ID, 'html'), 'utf8')).toBe('<p>v2</p>');
    expect(await readdir(files.dir)).toEqual([`${ID}.html`]);
    expect(await files.exists(ID, 'html')).toBe(true);
    await files.remove(ID);
    expect(await files.exists(ID, 'html')).toBe(false);
  });

  it('leaves neither a partial file nor its temporary when the final rename fails', async () => {
    const files = await DirectoryReportFiles.open(dir);
    // A non-empty directory where the file should go: the rename cannot replace it.
    await mkdir(join(dir, `${ID}.html`));
    await writeFile(join(dir, `${ID}.html`, 'keep'), 'x');
    await expect(files.write(ID, 'html', new TextEncoder().encode('new'))).rejects.toThrow();
    expect(await readdir(dir)).toEqual([`${ID}.html`]);
    expect(await readdir(join(dir, `${ID}.html`))).toEqual(['keep']);
  });

  it('removes temporaries a killed process left behind, and nothing else', async () => {
    await writeFile(join(dir, `.${ID}.pdf.123-abcd.tmp`), 'half');
    await writeFile(join(dir, `${ID}.html`), 'whole');
    await writeFile(join(dir, 'notes.txt'), 'operator');
    await DirectoryReportFiles.open(dir);
    expect((await readdir(dir)).sort()).toEqual([`${ID}.html`, 'notes.txt']);
  });

  it('refuses anything but a job id as a name', async () => {
    const files = await DirectoryReportFiles.open(dir);
    for (const bad of ['../etc/passwd', `${ID}/x`, ID.toUpperCase(), '']) {
      expect(() => files.path(bad, 'html')).toThrow('Not a job id');
    }
  });
});
