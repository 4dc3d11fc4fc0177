/** Schemas of the asynchronous batch jobs (`/historical/jobs`). */
import { Type } from 'typebox';
import { BATCH_FILE_FORMATS } from '../../batch/batch-jobs.js';
import { JOB_MAX_LOCATIONS } from '../../batch/batch-limits.js';
import { stringEnum } from './common.js';
import { BatchLocationSchema, BatchQuerySchema } from './batch.js';

export { BatchQuerySchema as BatchJobQuerySchema };

/** The JSON body of `POST /historical/jobs`: as the batch route's, with up to 10,000 locations. */
export const BatchJobBodySchema = Type.Object(
  {
    locations: Type.Array(BatchLocationSchema, { minItems: 1, maxItems: JOB_MAX_LOCATIONS, description: `1 to ${JOB_MAX_LOCATIONS} locations, ids unique.` }),
    metrics: Type.Optional(Type.String({ description: 'As on POST /historical/batch.' })),
  },
  { additionalProperties: false },
);

/** Path of the job endpoints. */
export const BatchJobParamsSchema = Type.Object({
  job_id: Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$', description: 'The job id (UUID v4) the POST answered.' }),
});

/** Query of the download endpoint. */
export const BatchJobDownloadQuerySchema = Type.Object({
  format: stringEnum(BATCH_FILE_FORMATS, { description: 'geojson (a FeatureCollection of points) or csv (one row per location).' }),
});

const links = Type.Object({ status: Type.String({ description: 'The status URL of the job.' }) });

/** The 202 answer. */
export const BatchJobAcceptedSchema = Type.Object({
  job_id: Type.String({ format: 'uuid' }),
  status: Type.Literal('processing'),
  stage: Type.Literal('queued'),
  locations: Type.Integer({ description: 'Locations in the job.' }),
  links,
});

/** The status document. */
export const BatchJobStatusSchema = Type.Object({
  job_id: Type.String({ format: 'uuid' }),
  status: stringEnum(['processing', 'completed', 'failed'] as const),
  stage: Type.Optional(stringEnum(['queued', 'running', 'delivering'] as const, { description: 'While processing.' })),
  progress: Type.Object({
    total: Type.Integer({ description: 'Locations in the job.' }),
    done: Type.Optional(Type.Integer({ description: 'Locations answered so far by the attempt running (while running).' })),
  }),
  files: Type.Optional(Type.Object({
    geojson: Type.Object({ url: Type.String() }),
    csv: Type.Object({ url: Type.String() }),
  }, { description: 'Once completed.' })),
  expires_in_days: Type.Optional(Type.Integer({ description: 'Once completed: the files are kept this long after the job finished.' })),
  detail: Type.Optional(Type.String({ description: 'Why the job failed.' })),
});
