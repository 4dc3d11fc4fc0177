/** Schema of `GET /key` (spec: Key info; the metric scope is reported as `metrics`). */
import { Type } from 'typebox';
import { nullable, roArray, stringEnum } from './common.js';

/** `GET /key` 200. */
export const KeyInfoSchema = Type.Object({
  label: Type.String({ description: 'Who or what the key was issued for.' }),
  type: stringEnum(['sk', 'pk'], { description: 'sk secret, pk publishable.' }),
  cities: roArray(Type.String(), { description: 'City scope; ["*"] means every city.' }),
  products: roArray(Type.String(), { description: 'Product scope; ["*"] means every product.' }),
  metrics: roArray(Type.String(), { description: 'Metric scope; ["*"] means every metric.' }),
  limits: Type.Object({
    rate_per_min: Type.Integer(),
    reports_per_day: Type.Integer(),
  }),
  origins: roArray(Type.String(), { description: 'Origin allowlist, enforced for publishable keys.' }),
  created: Type.String({ format: 'date', description: 'Issue date.' }),
  expires_at: nullable(Type.String({ format: 'date-time' })),
});
