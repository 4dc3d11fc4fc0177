/**
 * The PAM sidecar (`<raster>.aux.xml`) of a one-band coded raster: GDAL keeps a GeoTIFF band's category names and
 * raster attribute table only there (its GDAL_METADATA tag holds neither), reads the sidecar beside the file, locally
 * and over `/vsicurl/`, and lists both in `gdalinfo`; QGIS labels and colours the classes from the table.
 */
import { xmlEscape as xml } from './cog-ifd.js';

/** One class of a coded raster. */
export interface RasterCategory {
  /** The pixel value (a small non-negative integer). */
  readonly value: number;
  readonly name: string;
  /** `#rrggbb`, for the table's Red, Green and Blue columns. */
  readonly color?: string;
}

/** GDAL field types and usages of the raster attribute table (gdal.h: GFT_*, GFU_*). */
const INTEGER = 0, STRING = 2;
const USAGE = { name: 2, minMax: 5, red: 6, green: 7, blue: 8 } as const;

/**
 * The `.aux.xml` document for band 1: `CategoryNames` (entry i names pixel value i; values without a class get an
 * empty name) and a thematic `GDALRasterAttributeTable` with Value, Name and, when every class has a colour, Red,
 * Green and Blue.
 */
export function categoriesAuxXml(categories: readonly RasterCategory[]): string {
  for (const c of categories) {
    if (!Number.isInteger(c.value) || c.value < 0 || c.value > 255) throw new RangeError(`Category value ${c.value} is not in 0..255.`);
  }
  const top = Math.max(...categories.map((c) => c.value));
  const names = Array.from({ length: top + 1 }, (_, v) => categories.find((c) => c.value === v)?.name ?? '');
  const coloured = categories.every((c) => /^#[0-9a-fA-F]{6}$/.test(c.color ?? ''));
  const fields: [string, number, number][] = [['Value', INTEGER, USAGE.minMax], ['Name', STRING, USAGE.name]];
  if (coloured) fields.push(['Red', INTEGER, USAGE.red], ['Green', INTEGER, USAGE.green], ['Blue', INTEGER, USAGE.blue]);
  const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const rows = categories.map((c, i) => {
    const cells = [String(c.value), xml(c.name), ...(coloured ? rgb(c.color!).map(String) : [])];
    return `      <Row index="${i}">${cells.map((f) => `<F>${f}</F>`).join('')}</Row>`;
  });
  return [
    '<PAMDataset>',
    '  <PAMRasterBand band="1">',
    '    <CategoryNames>',
    ...names.map((n) => `      <Category>${xml(n)}</Category>`),
    '    </CategoryNames>',
    '    <GDALRasterAttributeTable tableType="thematic">',
    ...fields.map(([name, type, usage], i) =>
      `      <FieldDefn index="${i}"><Name>${name}</Name><Type>${type}</Type><Usage>${usage}</Usage></FieldDefn>`),
    ...rows,
    '    </GDALRasterAttributeTable>',
    '  </PAMRasterBand>',
    '</PAMDataset>',
    '',
  ].join('\n');
}
