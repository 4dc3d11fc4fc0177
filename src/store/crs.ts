/**
 * The one CRS every dataset uses, EPSG:31370 (BD72 / Belgian Lambert 72), in the forms the Zarr metadata carries:
 * the proj4 string of geo/lambert72.ts (with its datum shift) and a CF `grid_mapping` variable with WKT for xarray,
 * rioxarray and GDAL.
 */
import { LAMBERT72_EPSG, LAMBERT72_PROJ4 } from '../geo/lambert72.js';

/** EPSG code of Belgian Lambert 72; the only CRS a dataset may have. */
export const DATASET_CRS_EPSG = LAMBERT72_EPSG;

/** OGC WKT 1 of EPSG:31370 (as printed by `gdalsrsinfo EPSG:31370 -o wkt1`). */
const LAMBERT72_WKT =
  'PROJCS["BD72 / Belgian Lambert 72",GEOGCS["BD72",DATUM["Reseau_National_Belge_1972",' +
  'SPHEROID["International 1924",6378388,297,AUTHORITY["EPSG","7022"]],AUTHORITY["EPSG","6313"]],' +
  'PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],' +
  'AUTHORITY["EPSG","4313"]],PROJECTION["Lambert_Conformal_Conic_2SP"],PARAMETER["latitude_of_origin",90],' +
  'PARAMETER["central_meridian",4.36748666666667],PARAMETER["standard_parallel_1",51.1666672333333],' +
  'PARAMETER["standard_parallel_2",49.8333339],PARAMETER["false_easting",150000.013],' +
  'PARAMETER["false_northing",5400088.438],UNIT["metre",1,AUTHORITY["EPSG","9001"]],AXIS["Easting",EAST],' +
  'AXIS["Northing",NORTH],AUTHORITY["EPSG","31370"]]';

/** Attributes of the scalar `crs` variable that every data variable names in its `grid_mapping` attribute. */
export const LAMBERT72_GRID_MAPPING: Readonly<Record<string, unknown>> = Object.freeze({
  grid_mapping_name: 'lambert_conformal_conic',
  standard_parallel: [51.1666672333333, 49.8333339],
  longitude_of_central_meridian: 4.36748666666667,
  latitude_of_projection_origin: 90,
  false_easting: 150000.013,
  false_northing: 5400088.438,
  semi_major_axis: 6378388,
  inverse_flattening: 297,
  crs_wkt: LAMBERT72_WKT,
  spatial_ref: LAMBERT72_WKT,
  proj4: LAMBERT72_PROJ4,
  epsg_code: `EPSG:${DATASET_CRS_EPSG}`,
});
