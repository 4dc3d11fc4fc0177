/** Schema of `GET /health`. */
import { Type } from 'typebox';
import { stringEnum } from './common.js';

/** `GET /health` 200. */
export const HealthSchema = Type.Object({
  service: stringEnum(['svc-api']),
  status: stringEnum(['ok']),
  version: Type.String({ description: 'Version currently serving.' }),
  time: Type.String({ format: 'date-time', description: 'Current server time, UTC.' }),
});
