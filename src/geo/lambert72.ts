/**
 * The one definition of Belgian Lambert 72 (EPSG:31370, BD72 datum), the grid of every dataset. Pure data that
 * imports nothing, so the transforms (geo/crs.ts) and the dataset metadata (store/crs.ts) share it without the store
 * depending on proj4.
 *
 * The proj4 string is the projection GDAL prints for EPSG:31370 plus the 7-parameter BD72 → WGS 84 shift "BD72 to
 * WGS 84 (3)" (EPSG:15929, accuracy 1 m), the operation PROJ 9 and GDAL apply between EPSG:31370 and WGS 84 when no
 * datum grid is installed. EPSG publishes its rotations in the coordinate-frame convention (−0.3366, 0.457,
 * −1.8422″); `+towgs84` takes the position-vector convention, hence the flipped rotation signs. Without the shift
 * (`gdalsrsinfo -o proj4` leaves it out) positions are off by about 100 m. test/geo/lambert72.test.ts holds it to GDAL.
 */

/** EPSG code of Belgian Lambert 72. */
export const LAMBERT72_EPSG = 31370;

/** proj4 definition of EPSG:31370 with the BD72 datum shift; datasets carry it as `crs_proj4` and in their `crs`. */
export const LAMBERT72_PROJ4 =
  '+proj=lcc +lat_0=90 +lon_0=4.36748666666667 +lat_1=51.1666672333333 +lat_2=49.8333339 ' +
  '+x_0=150000.013 +y_0=5400088.438 +ellps=intl ' +
  '+towgs84=-106.8686,52.2978,-103.7239,0.3366,-0.457,1.8422,-1.2747 +units=m +no_defs';
