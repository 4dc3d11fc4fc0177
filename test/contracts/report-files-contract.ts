/**
 * The contract of report files (`ReportFileStore`), run against each implementation: a directory
 * (test/reports/jobs/report-files.test.ts) and the JetStream object store (test/reports/jobs/object-report-files.test.ts).
 * A file is there whole or not at all, a missing file is a value, and only job ids name files.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReportFileStore } from '../../src/reports/jobs/report-files.js';

/** One store under test, made fresh for each case. */
export interface ReportFilesHarness {
  readonly files: ReportFileStore;
  close?(): void | Promise<void>;
}

let seq = 0;
/** A job id (UUID v4) no other case uses. */
const newId = () => `0a4a4397-19f0-416d-a32c-${String(++seq).padStart(12, '0')}`;

async function bytesOf(stream: NodeJS.ReadableStream): Promise<Uint8Array> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part as Buffer));
  return new Uint8Array(Buffer.concat(parts));
}

/** The file's bytes and the size it was opened with; undefined when it is absent. */
async function read(files: ReportFileStore, id: string, format: 'html' | 'pdf'): Promise<{ size: number; bytes: Uint8Array } | undefined> {
  const opened = await files.open(id, format);
  return opened && { size: opened.size, bytes: await bytesOf(opened.stream) };
}

const text = (s: string) => new TextEncoder().encode(s);

/** Runs the report files contract against the implementation `make` builds. */
export function describeReportFiles(name: string, make: () => ReportFilesHarness | Promise<ReportFilesHarness>): void {
  describe(`${name} (report files contract)`, () => {
    let h: ReportFilesHarness;
    let files: ReportFileStore;
    beforeEach(async () => {
      h = await make();
      files = h.files;
    });
    afterEach(async () => h.close?.());

    it('answers a file never written as absent, in either format', async () => {
      const id = newId();
      expect(await files.open(id, 'html')).toBeUndefined();
      expect(await files.open(id, 'pdf')).toBeUndefined();
    });

    it('opens a written file with its size and bytes; the other format stays absent', async () => {
      const id = newId();
      await files.write(id, 'html', text('<p>été ✓</p>'));
      expect(await read(files, id, 'html')).toEqual({ size: text('<p>été ✓</p>').byteLength, bytes: text('<p>été ✓</p>') });
      expect(await files.open(id, 'pdf')).toBeUndefined();
    });

    it('replaces a file whole', async () => {
      const id = newId();
      await files.write(id, 'pdf', new Uint8Array(50_000).fill(1));
      await files.write(id, 'pdf', text('%PDF-1.7 short'));
      expect(await read(files, id, 'pdf')).toEqual({ size: 14, bytes: text('%PDF-1.7 short') });
    });

    it('keeps a large file whole, byte for byte', async () => {
      const id = newId();
      const bytes = new Uint8Array(300_000).map((_, i) => (i * 7) % 256); // several object-store chunks
      await files.write(id, 'pdf', bytes);
      const back = await read(files, id, 'pdf');
      expect(back?.size).toBe(bytes.length);
      expect(Buffer.from(back!.bytes).equals(Buffer.from(bytes))).toBe(true);
    });

    it('an opened file still reads whole when it is removed meanwhile', async () => {
      const id = newId();
      await files.write(id, 'pdf', new Uint8Array(100_000).fill(37));
      const opened = (await files.open(id, 'pdf'))!;
      await files.remove(id);
      expect((await bytesOf(opened.stream)).length).toBe(100_000);
      expect(await files.open(id, 'pdf')).toBeUndefined();
    });

    it('removes every format of a job, and removing again is fine', async () => {
      const [id, other] = [newId(), newId()];
      await files.write(id, 'html', text('<p>a</p>'));
      await files.write(id, 'pdf', text('%PDF'));
      await files.write(other, 'html', text('<p>b</p>'));
      await files.remove(id);
      await files.remove(id);
      expect(await files.open(id, 'html')).toBeUndefined();
      expect(await files.open(id, 'pdf')).toBeUndefined();
      expect((await read(files, other, 'html'))?.bytes).toEqual(text('<p>b</p>'));
    });

    it('refuses anything but a job id as a name', async () => {
      const id = newId();
      for (const bad of ['../etc/passwd', `${id}/x`, id.toUpperCase(), '']) {
        await expect(files.write(bad, 'html', text('x'))).rejects.toThrow('Not a job id');
        await expect(files.open(bad, 'pdf')).rejects.toThrow('Not a job id');
        await expect(files.remove(bad)).rejects.toThrow('Not a job id');
      }
    });
  });
}
