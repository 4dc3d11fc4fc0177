/**
 * Report files in a directory: a file appears only whole (temporary name, fsync, rename), temporaries left by a killed
 * process are removed on open, a missing file is a value (undefined), and only job ids become file names.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DirectoryReportFiles } from '../../../src/reports/jobs/report-files.js';

const ID = '0a4a4397-19f0-416d-a32c-800056678b80';
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-report-files-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

describe('DirectoryReportFiles', () => {
  it('writes, opens with its size, replaces whole and removes', async () => {
    const files = await DirectoryReportFiles.open(join(dir, 'reports'));
    expect(await files.open(ID, 'html')).toBeUndefined();
    await files.write(ID, 'html', new TextEncoder().encode('<p>été</p>'));
    const opened = (await files.open(ID, 'html'))!;
    expect(opened.size).toBe(Buffer.byteLength('<p>été</p>'));
    expect(await readAll(opened.stream)).toBe('<p>été</p>');
    await files.write(ID, 'html', new TextEncoder().encode('<p>v2</p>'));
    expect(await readFile(files.path(ID, 'html'), 'utf8')).toBe('<p>v2</p>');
    expect(await readdir(files.dir)).toEqual([`${ID}.html`]);
    await files.remove(ID);
    await files.remove(ID);
    expect(await files.exists(ID, 'html')).toBe(false);
  });

  it('an opened file still reads whole when it is deleted meanwhile', async () => {
    const files = await DirectoryReportFiles.open(dir);
    await files.write(ID, 'pdf', new Uint8Array(100_000).fill(37));
    const opened = (await files.open(ID, 'pdf'))!;
    await files.remove(ID);
    expect((await readAll(opened.stream)).length).toBe(100_000);
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
