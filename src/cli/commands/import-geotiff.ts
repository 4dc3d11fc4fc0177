/**
 * `svc data import-geotiff`: replaces a static array or an hourly field of a dataset, within the GeoTIFF's extent,
 * with the contents of a GDAL-made GeoTIFF in EPSG:31370 on the dataset's grid. The change is atomic and bumps the
 * dataset's content version, so cached statistics computed from the old data are not served again.
 */
import { basename, dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { aggregateDataset, aggregationRefused } from '../../compute/aggregates/dataset-aggregation.js';
import { createLocalCompute } from '../../compute/local-compute.js';
import { ValidationError } from '../../errors.js';
import { HOURLY_FIELDS, STATIC_ARRAYS, type HourlyField, type StaticArray } from '../../store/dataset-types.js';
import { importGeoTiff } from '../../store/geotiff-import.js';
import type { Command } from '../command.js';
import { UsageError } from '../usage-error.js';

const USAGE = `Usage: svc data import-geotiff --data DIR --input FILE.tif --array NAME [--band-hours] [--source TEXT]

Writes a GeoTIFF into an existing dataset (a Zarr group directory such as data/demo/brussels_extended):
  --data DIR      the dataset directory
  --input FILE    a GeoTIFF georeferenced in EPSG:31370, north-up, at the dataset's resolution, with its corner on
                  the dataset's cell lattice and its extent inside the dataset's (it may cover part of the grid)
  --array NAME    outdoor (one band, 0 = building interior, 1 = outdoor), building_height (one band, metres), or an
                  hourly field the dataset holds: ${HOURLY_FIELDS.join(', ')}
  --band-hours    required for hourly fields: band i is hour i of the reference year (as many bands as hours);
                  values are physical units (e.g. µg/m³, m/s, °C), packed with the field's scale and offset;
                  GDAL nodata and NaN become missing values
  --source TEXT   what the imported data are (e.g. "PALM-4U run 2024-03, VITO"); recorded in the dataset's
                  \`imports\` and shown wherever the data's provenance is (atlas files, map attribution);
                  default: the GeoTIFF's file name

Only the chunks the GeoTIFF touches are rewritten; the store changes all at once, or not at all, and its
content_version is bumped. The dataset records the import; once every array it holds has been imported over
the whole grid, its files and map no longer call it the stand-in model's data.`;

/** Parses the options strictly; a bad option or a stray argument is a usage error (exit code 2). */
function parseOptions(args: string[]) {
  try {
    return parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        data: { type: 'string' }, input: { type: 'string' }, array: { type: 'string' }, 'band-hours': { type: 'boolean' },
        source: { type: 'string' },
      },
    }).values;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) throw new UsageError((err as Error).message);
    throw err;
  }
}

/** `svc data import-geotiff`. */
export const importGeotiffCommand: Command = {
  path: ['data', 'import-geotiff'],
  summary: 'Import a GeoTIFF (EPSG:31370) into a static array or an hourly field of a dataset',
  usage: USAGE,
  async run(args) {
    const values = parseOptions(args);
    if (!values.data) throw new UsageError('--data DIR is required.');
    if (!values.input) throw new UsageError('--input FILE.tif is required.');
    const array = values.array;
    if (!array) throw new UsageError('--array NAME is required.');
    if (![...STATIC_ARRAYS, ...HOURLY_FIELDS].includes(array as StaticArray | HourlyField)) {
      throw new ValidationError(`--array must be one of ${[...STATIC_ARRAYS, ...HOURLY_FIELDS].join(', ')}.`);
    }
    const result = await importGeoTiff({
      dataDir: resolve(values.data),
      input: resolve(values.input),
      array: array as StaticArray | HourlyField,
      bandHours: values['band-hours'] === true,
      ...(values.source === undefined ? {} : { source: values.source }),
    });
    const w = result.window;
    console.log(
      `Imported ${result.array}: rows ${w.row0}..${w.row0 + w.rows - 1}, columns ${w.col0}..${w.col0 + w.cols - 1}, ` +
      `${result.chunks} chunk(s) rewritten; content_version is now ${result.contentVersion}.`,
    );
    if (result.aggregateLevels.length === 0) return 0;
    // The import changed what the stored aggregates sum: write them again for the new content.
    const storeDir = resolve(values.data);
    const compute = await createLocalCompute({ dataDir: dirname(storeDir) });
    try {
      const again = await aggregateDataset(compute, dirname(storeDir), basename(storeDir), { levels: result.aggregateLevels });
      if (again.damaged.length > 0) throw aggregationRefused(again);
      console.log(`Aggregates rewritten: ${again.files} (levels ${again.levels.join(', ')}).`);
    } finally {
      await compute.close();
    }
    return 0;
  },
};
