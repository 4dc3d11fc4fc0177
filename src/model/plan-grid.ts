import { LAMBERT72_EPSG } from '../geo/lambert72.js';
import type { GridGeometry } from '../store/dataset-types.js';
import type { DatasetPlan } from './presets.js';

/** Grid of a plan: cell centres half a cell inside the zone rectangle, north-up. */
export function planGrid(plan: DatasetPlan): GridGeometry {
  const res = plan.resolution_m;
  return {
    crs_epsg: LAMBERT72_EPSG,
    resolution_m: res,
    nx: Math.round((plan.rect.xmax - plan.rect.xmin) / res),
    ny: Math.round((plan.rect.ymax - plan.rect.ymin) / res),
    x0: plan.rect.xmin + res / 2,
    y0: plan.rect.ymax - res / 2,
  };
}
