/**
 * Report files in the JetStream object store `svc_reports` (`<job id>.html`, `<job id>.pdf`), so any API node serves
 * any download. An object appears whole or not at all: the store publishes its description only after every chunk,
 * and a write of the same name replaces the earlier object whole. The bucket's `max_age` (31 days) is a backstop;
 * the retention sweeper deletes files 30 days after generation, as it does for a directory.
 */
import { Readable } from 'node:stream';
import type { ObjectStore } from '@nats-io/obj';
import { REPORT_FORMATS, type OpenedReportFile, type ReportFileStore, type ReportFormat } from './report-files.js';
import { BucketOpener } from '../../cluster/kv-ops.js';
import { REPORTS_OBJECT_BUCKET } from '../../cluster/names.js';
import type { ClusterLink } from '../../cluster/nats-connection.js';

/** A job id (UUID v4): nothing else becomes part of an object name. */
const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The object name of a job's file in a format. */
function reportObjectName(id: string, format: ReportFormat): string {
  if (!JOB_ID.test(id)) throw new Error(`Not a job id: ${JSON.stringify(id)}`);
  return `${id}.${format}`;
}

/** A `ReportFileStore` over the cluster's object store. */
export class ObjectReportFiles implements ReportFileStore {
  readonly #buckets: BucketOpener;

  /** `deadlineMs` bounds each operation (files are at most a few MB). */
  constructor(link: ClusterLink, deadlineMs = 30_000) {
    this.#buckets = new BucketOpener(link, deadlineMs);
  }

  async write(id: string, format: ReportFormat, bytes: Uint8Array): Promise<void> {
    const name = reportObjectName(id, format);
    await this.#buckets.run(`storing the report file '${name}'`, async () => (await this.#store()).putBlob({ name }, bytes));
  }

  /** The file, read whole (reports are small) so a deletion meanwhile cannot cut it short. */
  async open(id: string, format: ReportFormat): Promise<OpenedReportFile | undefined> {
    const name = reportObjectName(id, format);
    const bytes = await this.#buckets.run(`reading the report file '${name}'`, async () => (await this.#store()).getBlob(name));
    if (bytes === null) return undefined;
    return { stream: Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]), size: bytes.byteLength };
  }

  async remove(id: string): Promise<void> {
    for (const format of REPORT_FORMATS) {
      const name = reportObjectName(id, format);
      // Deleting a missing object is a no-op of the store (it answers success: false).
      await this.#buckets.run(`deleting the report file '${name}'`, async () => (await this.#store()).delete(name));
    }
  }

  #store(): Promise<ObjectStore> {
    return this.#buckets.objects(REPORTS_OBJECT_BUCKET);
  }
}
