/**
 * The reports product below the HTTP layer: accepting requests (report-admission.ts), the status of a job (which
 * renders the PDF on the first poll after the HTML is ready, report-pdf.ts) and the files to download. A job belongs
 * to the key that created it: to any other key it does not exist. Files live 30 days from generation; from then on
 * the job answers as expired (the sweeper deletes the files, but the rule holds to the second without it).
 */
import { NotFoundError } from '../../errors.js';
import { isReportRequest, type JobStage, type ReportJob, type ReportJobStore } from '../jobs/job-types.js';
import type { OpenedReportFile, ReportDocumentFormat, ReportFileStore } from '../jobs/report-files.js';
import { REPORT_RETENTION_MS } from '../retention.js';
import type { ApiKeyRecord } from '../../keys/key-types.js';
import type { ReportLang, ReportRequest } from '../report-types.js';
import { quoteInput } from '../../util/quote-input.js';
import type { Clock } from '../../util/clock.js';
import type { Accepted, ReportAdmissions, ReportParams } from './report-admission.js';
import { reportFilename, type ReportFilename } from './report-filename.js';
import type { ReportPdf } from './report-pdf.js';

/** What a status poll tells, by state. */
export type ReportStatus =
  | { readonly id: string; readonly status: 'processing'; readonly stage: JobStage }
  | { readonly id: string; readonly status: 'failed'; readonly detail: string }
  | { readonly id: string; readonly status: 'completed'; readonly address: string; readonly lang: ReportLang; readonly pdfReady: boolean };

/** A file to send: its bytes, its download names and its media type. */
export interface ReportDownload {
  readonly file: OpenedReportFile;
  readonly filename: ReportFilename;
  readonly format: ReportDocumentFormat;
}

/** What the service needs. */
export interface ReportServiceDeps {
  readonly admissions: ReportAdmissions;
  readonly jobs: ReportJobStore;
  readonly files: ReportFileStore;
  readonly pdf: ReportPdf;
  readonly clock: Clock;
}

/** Serves report requests, status polls and downloads; one per process. */
export class ReportService {
  readonly #deps: ReportServiceDeps;

  constructor(deps: ReportServiceDeps) {
    this.#deps = deps;
  }

  /** Accepts a request (see report-admission.ts for the checks and their order). */
  accept(params: ReportParams, key: ApiKeyRecord, idempotencyKey?: string): Promise<Accepted> {
    return this.#deps.admissions.accept(params, key, idempotencyKey);
  }

  /** The status of a job of `key`; on a completed job without a PDF, renders it (waiting briefly). */
  async status(id: string, key: ApiKeyRecord): Promise<ReportStatus> {
    const job = await this.#live(id, key);
    switch (job.state) {
      case 'queued':
      case 'running':
      case 'delivering':
        return { id, status: 'processing', stage: job.state };
      case 'failed':
        return { id, status: 'failed', detail: job.detail ?? 'The report could not be generated.' };
      case 'completed': {
        const pdfReady = await this.#deps.pdf.ready(job);
        return { id, status: 'completed', address: job.request.address, lang: job.request.lang, pdfReady };
      }
    }
  }

  /** A file of a completed job of `key`; NotFoundError when it is not (or no longer) there. */
  async download(id: string, format: ReportDocumentFormat, key: ApiKeyRecord): Promise<ReportDownload> {
    const job = await this.#live(id, key);
    if (job.state !== 'completed') {
      throw new NotFoundError(
        job.state === 'failed'
          ? `The report job ${quoteInput(id)} failed; it has no files.`
          : `The report of job ${quoteInput(id)} is not generated yet; poll its status until it is completed.`,
      );
    }
    if (format === 'pdf' && job.pdfMs === undefined) {
      throw new NotFoundError(
        `The PDF of job ${quoteInput(id)} is not rendered yet: it is rendered on a status poll once the HTML is ready; poll the status until it lists the PDF.`,
      );
    }
    const file = await this.#deps.files.open(id, format);
    if (file === undefined) throw expired(id);
    return { file, filename: reportFilename(job.request.address, format), format };
  }

  /** The job of `key` with this id, not past retention; NotFoundError otherwise (another key's job does not exist). */
  async #live(id: string, key: ApiKeyRecord): Promise<ReportJob & { readonly request: ReportRequest }> {
    const job = await this.#deps.jobs.get(id);
    // A job of another kind (a batch job) on the same store is not a report job.
    if (job === undefined || job.keyId !== key.id || !isReportRequest(job.request)) throw new NotFoundError(`There is no report job ${quoteInput(id)}.`);
    const finished = job.finishedMs;
    if (job.expiredMs !== undefined || (finished !== undefined && this.#deps.clock.now() >= finished + REPORT_RETENTION_MS)) {
      throw expired(id);
    }
    return job as ReportJob & { readonly request: ReportRequest };
  }
}

function expired(id: string): NotFoundError {
  return new NotFoundError(`The report of job ${quoteInput(id)} has expired: report files are deleted 30 days after generation.`);
}
