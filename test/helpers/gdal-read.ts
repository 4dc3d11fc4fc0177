/**
 * Reads a GeoTIFF with Debian's GDAL (python3-gdal under /usr/bin/python3), as GIS software would: georeferencing,
 * overviews, band description, unit, nodata, metadata (the dataset's and the band's), category names and raster
 * attribute table (from a PAM sidecar), the COG validator's verdict, and band 1 as float32 values.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const PYTHON = '/usr/bin/python3';

const GDAL_IMPORTS = 'from osgeo import gdal; from osgeo_utils.samples import validate_cloud_optimized_geotiff';

/** True where the GDAL Python bindings and the COG validator are installed. */
export const hasGdalPython = spawnSync(PYTHON, ['-c', GDAL_IMPORTS], { encoding: 'utf8' }).status === 0;

/** What GDAL reports of a GeoTIFF. */
export interface GdalView {
  readonly epsg: string | null;
  readonly geotransform: number[];
  readonly size: [number, number];
  readonly block: [number, number];
  readonly overviews: [number, number][];
  readonly description: string;
  readonly unit: string;
  readonly nodata: number | null;
  readonly metadata: Record<string, string>;
  readonly bandMetadata: Record<string, string>;
  /** Band 1's category names, entry i naming value i; empty when it has none. */
  readonly categories: string[];
  /** Band 1's raster attribute table: column names, then rows; null when it has none. */
  readonly rat: { readonly columns: string[]; readonly rows: (string | number)[][] } | null;
  readonly cogErrors: string[];
  readonly cogWarnings: string[];
  /** Band 1, row-major. */
  readonly values: Float32Array;
  /** Band 1's first overview, row-major (empty without overviews). */
  readonly overview: Float32Array;
}

const SCRIPT = `
import json, sys
from osgeo import gdal, osr
from osgeo_utils.samples import validate_cloud_optimized_geotiff as cog
gdal.UseExceptions()
path, raw = sys.argv[1], sys.argv[2]
ds = gdal.Open(path)
b = ds.GetRasterBand(1)
srs = osr.SpatialReference(wkt=ds.GetProjection())
srs.AutoIdentifyEPSG()
warnings, errors, _ = cog.validate(path, full_check=True)
b.ReadAsArray().astype('<f4').tofile(raw)
(b.GetOverview(0).ReadAsArray().astype('<f4') if b.GetOverviewCount() else b.ReadAsArray()[:0]).tofile(raw + '.ovr')
rat = b.GetDefaultRAT()
def cell(t, r, c):
  kind = t.GetTypeOfCol(c)
  return t.GetValueAsInt(r, c) if kind == gdal.GFT_Integer else t.GetValueAsDouble(r, c) if kind == gdal.GFT_Real else t.GetValueAsString(r, c)
table = None if rat is None else {
  'columns': [rat.GetNameOfCol(c) for c in range(rat.GetColumnCount())],
  'rows': [[cell(rat, r, c) for c in range(rat.GetColumnCount())] for r in range(rat.GetRowCount())]}
print(json.dumps({
  'epsg': srs.GetAuthorityCode(None), 'geotransform': list(ds.GetGeoTransform()),
  'size': [ds.RasterXSize, ds.RasterYSize], 'block': b.GetBlockSize(),
  'overviews': [[b.GetOverview(i).XSize, b.GetOverview(i).YSize] for i in range(b.GetOverviewCount())],
  'description': b.GetDescription(), 'unit': b.GetUnitType(), 'nodata': b.GetNoDataValue(),
  'metadata': ds.GetMetadata(), 'bandMetadata': b.GetMetadata(), 'categories': b.GetCategoryNames() or [], 'rat': table,
  'cogErrors': errors, 'cogWarnings': warnings}))
`;

/** Reads `path` through GDAL. */
export function gdalRead(path: string): GdalView {
  const raw = `${path}.values.bin`;
  const floats = (file: string): Float32Array => {
    const bytes = readFileSync(file);
    return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  };
  try {
    const out = execFileSync(PYTHON, ['-c', SCRIPT, path, raw], { encoding: 'utf8' });
    const view = JSON.parse(out) as Omit<GdalView, 'values' | 'overview'>;
    return { ...view, values: floats(raw), overview: floats(`${raw}.ovr`) };
  } finally {
    rmSync(raw, { force: true });
    rmSync(`${raw}.ovr`, { force: true });
  }
}
