/** Schema of `GET /health`. */
import { Type } from 'typebox';
import { roArray, stringEnum } from './common.js';

/** One dataset whose stored data were found damaged. */
const DamagedDatasetSchema = Type.Object({
  dataset: Type.String({ description: 'Dataset id.' }),
  problems: Type.Integer({ minimum: 1, description: 'Distinct problems found so far (chunks, metadata).' }),
  detail: Type.String({ description: 'The first problem found, naming the dataset and the damaged part.' }),
  since: Type.String({ format: 'date-time', description: 'When it was found, UTC.' }),
});

/** `GET /health` 200. */
export const HealthSchema = Type.Object({
  service: stringEnum(['svc-api']),
  status: stringEnum(['ok']),
  version: Type.String({ description: 'Version currently serving.' }),
  time: Type.String({ format: 'date-time', description: 'Current server time, UTC.' }),
  data: Type.Object({
    status: stringEnum(['ok', 'degraded'], { description: '`degraded` when some dataset is damaged; the others keep serving.' }),
    damaged: roArray(DamagedDatasetSchema, { description: 'Damaged datasets, by id; empty when `status` is `ok`.' }),
  }, { description: 'State of the stored datasets. `status` above stays `ok` (the process is up) whatever this says.' }),
});
