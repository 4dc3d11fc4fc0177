/**
 * Schemas of the reports endpoints (spec: Report resources): the request body, the accepted answer, the status and
 * the download parameters. The body is validated without type coercion (src/api/strict-body.ts) and refuses unknown
 * fields: a report costs quota, so a misspelt `lang` or `radius` must not silently give another report.
 */
import { Type } from 'typebox';
import { REPORT_LANGS } from '../../reports/report-types.js';
import { stringEnum } from './common.js';

/** The spec's job id pattern (UUID v4, lower case). */
const JOB_ID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$';

/** No C0 or C1 control character (and no DEL) anywhere in the text. */
const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u001f\\u007f-\\u009f]*$';

/** Body of `POST /reports`; address xor lat/lon is checked by the service. */
export const ReportBodySchema = Type.Object(
  {
    address: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        pattern: NO_CONTROL_CHARACTERS,
        description: 'Free text, at most 200 characters, no control characters; the top geocoding result is used when its relevance is at least 0.6 (a municipality alone only where the nationwide dataset answers). Alternative to lat and lon.',
      }),
    ),
    lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90, description: 'WGS 84 decimal degrees; rounded to 5 decimals. Give lat and lon together.' })),
    lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180, description: 'WGS 84 decimal degrees; rounded to 5 decimals.' })),
    radius: Type.Optional(Type.Number({ minimum: 5, maximum: 50, default: 10, description: 'Metres, 5 to 50; default 10. Ignored where the nationwide dataset answers.' })),
    lang: Type.Optional(stringEnum(REPORT_LANGS, { default: 'en', description: 'Language of the report: en, fr or nl; default en.' })),
  },
  { additionalProperties: false, description: 'Give address, or lat and lon. Unknown fields are refused.' },
);

/** Headers of `POST /reports`. */
export const ReportHeadersSchema = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7e]+$',
      description: 'Optional, 1 to 255 visible ASCII characters, unique per request (a UUID fits). A retried POST with the same key and the same body returns the same job and is counted once; the same key with another body is a 400.',
    }),
  ),
});

/** Path of the job endpoints. */
export const JobParamsSchema = Type.Object({
  job_id: Type.String({ pattern: JOB_ID_PATTERN, description: 'The job id (UUID v4) the POST answered.' }),
});

/** Query of the download endpoint. */
export const DownloadQuerySchema = Type.Object({
  format: stringEnum(['html', 'pdf'] as const, { description: 'html (self-contained page) or pdf (A4).' }),
});

/** The 202 answer of `POST /reports`. */
export const ReportAcceptedSchema = Type.Object(
  {
    job_id: Type.String({ format: 'uuid', description: 'Job id (UUID v4).' }),
    status: stringEnum(['processing'] as const, { description: 'Always processing.' }),
    stage: stringEnum(['queued'] as const, { description: 'Always queued.' }),
    links: Type.Object({ status: Type.String({ description: 'Relative URL to poll: /v1/reports/{job_id}.' }) }),
  },
  { additionalProperties: false },
);

const FileLink = (format: string) =>
  Type.Object({ url: Type.String({ description: `Relative, authenticated download URL: /v1/reports/{job_id}/download?format=${format}.` }) });

/** The answer of `GET /reports/{job_id}`. */
export const ReportStatusSchema = Type.Object(
  {
    job_id: Type.String({ format: 'uuid' }),
    status: stringEnum(['processing', 'completed', 'failed'] as const),
    stage: Type.Optional(stringEnum(['queued', 'running', 'delivering'] as const, { description: 'While processing: queued, running (gathering statistics and figures), delivering (rendering and storing the files).' })),
    address: Type.Optional(Type.String({ description: 'On completion: the address the report describes (geocoded, reverse-geocoded, or "lat, lon" with 5 decimals).' })),
    lang: Type.Optional(stringEnum(REPORT_LANGS, { description: 'On completion: the language of the report.' })),
    files: Type.Optional(
      Type.Object(
        { html: FileLink('html'), pdf: Type.Optional(FileLink('pdf')) },
        { description: 'On completion. pdf is absent while the PDF is pending.' },
      ),
    ),
    pdf_pending: Type.Optional(Type.Boolean({ description: 'Present (true) only while the PDF is not ready; each poll retries rendering it.' })),
    expires_in_days: Type.Optional(Type.Integer({ description: 'On completion: 30, the days the files are kept after generation.' })),
    detail: Type.Optional(Type.String({ description: 'On failure: short reason.' })),
  },
  { additionalProperties: false },
);
