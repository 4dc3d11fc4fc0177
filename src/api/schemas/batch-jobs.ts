/** Schemas of the asynchronous batch jobs (`/historical/jobs`). */
import { Type } from 'typebox';
import { BATCH_FILE_FORMATS } from '../../batch/batch-jobs.js';
import { JOB_MAX_LOCATIONS } from '../../batch/batch-limits.js';
import { stringEnum } from './common.js';
import { BatchLocationSchema, BatchQuerySchema } from './batch.js';
import { AreaQuerySchema } from './area.js';

/** Query of `POST /historical/jobs`: the batch route's, and the area route's `min_coverage` (area jobs only). */
export const BatchJobQuerySchema = Type.Object({
  ...BatchQuerySchema.properties,
  min_coverage: Type.Optional(AreaQuerySchema.properties.min_coverage),
});

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
  format: stringEnum(BATCH_FILE_FORMATS, { description: 'geojson (a FeatureCollection: points of locations, or the features of an area) or csv (one row per location or feature).' }),
});

const JobKindSchema = stringEnum(['batch', 'area'] as const, { description: 'batch: locations; area: a GeoJSON body.' });

const links = Type.Object({ status: Type.String({ description: 'The status URL of the job.' }) });

/** The 202 answer. */
export const BatchJobAcceptedSchema = Type.Object({
  job_id: Type.String({ format: 'uuid' }),
  kind: JobKindSchema,
  status: Type.Literal('processing'),
  stage: Type.Literal('queued'),
  locations: Type.Optional(Type.Integer({ description: 'Locations in a batch job.' })),
  features: Type.Optional(Type.Integer({ description: 'Features in an area job.' })),
  links,
});

/** The status document. */
export const BatchJobStatusSchema = Type.Object({
  job_id: Type.String({ format: 'uuid' }),
  kind: JobKindSchema,
  status: stringEnum(['processing', 'completed', 'failed'] as const),
  stage: Type.Optional(stringEnum(['queued', 'running', 'delivering'] as const, { description: 'While processing.' })),
  progress: Type.Object({
    total: Type.Integer({ description: 'Locations (batch) or features (area) in the job.' }),
    done: Type.Optional(Type.Integer({ description: 'Locations or features answered so far by the attempt running (while running).' })),
  }),
  files: Type.Optional(Type.Object({
    geojson: Type.Object({ url: Type.String() }),
    csv: Type.Object({ url: Type.String() }),
  }, { description: 'Once completed.' })),
  expires_in_days: Type.Optional(Type.Integer({ description: 'Once completed: the files are kept this long after the job finished.' })),
  detail: Type.Optional(Type.String({ description: 'Why the job failed.' })),
});
