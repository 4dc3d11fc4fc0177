/**
 * Examples of the batch routes: a batch of two locations (one answered — the stored real answer of
 * `GET /historical/stats` at the Grand-Place — one outside coverage) and a job's life (accepted, completed, its files).
 */
import type { Static } from 'typebox';
import type { BatchAnswerSchema } from '../../api/schemas/batch.js';
import type { BatchJobAcceptedSchema, BatchJobStatusSchema } from '../../api/schemas/batch-jobs.js';
import { STATS_EXAMPLE } from './example-answers.js';

/** The job id of the examples. */
export const BATCH_JOB_EXAMPLE_ID = '7d2e4b10-5c3a-4f8e-b912-6a0c3e9d1f27';

/** The body of the batch and job examples. */
export const BATCH_BODY_EXAMPLE = {
  locations: [
    { id: 'office', address: 'Grand-Place 1, 1000 Bruxelles', radius: 25 },
    { id: 'paris', lat: 48.85661, lon: 2.35222 },
  ],
} as const;

/** `POST /v1/historical/batch` with `BATCH_BODY_EXAMPLE`, its problem documents pointing at `docsUrl`. */
export const BATCH_EXAMPLE = (docsUrl: string): Static<typeof BatchAnswerSchema> => ({
  locations: 2,
  answered: 1,
  failed: 1,
  results: [
    { id: 'office', ok: true, cache: 'hit', result: STATS_EXAMPLE },
    {
      id: 'paris', ok: false,
      problem: {
        type: `${docsUrl}/errors#outside_coverage`, code: 'outside_coverage', title: 'Outside coverage area', status: 422,
        detail: 'The location 48.85661, 2.35222 is outside every covered area (Belgium).', request_id: '0b6f4c1e-3f43-4d2a-9a55-4f3a1f6f2c11',
      },
    },
  ],
});

/** `POST /v1/historical/jobs` with `BATCH_BODY_EXAMPLE`. */
export const BATCH_JOB_ACCEPTED_EXAMPLE: Static<typeof BatchJobAcceptedSchema> = {
  job_id: BATCH_JOB_EXAMPLE_ID, kind: 'batch', status: 'processing', stage: 'queued', locations: 2, links: { status: `/v1/historical/jobs/${BATCH_JOB_EXAMPLE_ID}` },
};

/** `GET /v1/historical/jobs/{job_id}` once the job is completed. */
export const BATCH_JOB_STATUS_EXAMPLE: Static<typeof BatchJobStatusSchema> = {
  job_id: BATCH_JOB_EXAMPLE_ID,
  kind: 'batch',
  status: 'completed',
  progress: { total: 2, done: 2 },
  files: {
    geojson: { url: `/v1/historical/jobs/${BATCH_JOB_EXAMPLE_ID}/download?format=geojson` },
    csv: { url: `/v1/historical/jobs/${BATCH_JOB_EXAMPLE_ID}/download?format=csv` },
  },
  expires_in_days: 30,
};

/** The start of a downloaded result file, by media type. */
export const BATCH_FILE_EXAMPLES: Readonly<Record<string, string>> = {
  'application/geo+json': '{"type":"FeatureCollection","features":[\n{"type":"Feature","id":"office","geometry":{"type":"Point","coordinates":[4.35224,50.84675]},"properties":{"id":"office","ok":true,"city.id":"brussels",…}},\n{"type":"Feature","id":"paris","geometry":{"type":"Point","coordinates":[2.35222,48.85661]},"properties":{"id":"paris","ok":false,"error_code":"outside_coverage",…}}\n]}',
  'text/csv': 'id,ok,error_code,error_detail,city.id,city.name,…\r\noffice,true,,,brussels,Brussels,…\r\nparis,false,outside_coverage,"The location 48.85661, 2.35222 is outside every covered area (Belgium).",,,…\r\n',
};
