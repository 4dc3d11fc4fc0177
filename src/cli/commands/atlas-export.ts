import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { exportAtlasInThread } from '../../atlas/atlas-thread.js';
import { CITIES, getCity, streetLevelCities } from '../../cities/catalog.js';
import { ValidationError } from '../../errors.js';
import type { Command } from '../command.js';
import { UsageError } from '../usage-error.js';

const USAGE = `Usage: svc atlas export --data DIR --city ID --out DIR

Exports the city's precomputed figures (svc precompute) as files a GIS opens, into the --out directory: one
Cloud-Optimized GeoTIFF per figure, named after the statistics field it holds with dots as underscores
(air_rating.tif, air_annual_mean_ugm3_no2.tif, wind_exceedance_pct_danger.tif, thermal_comfort_pct.tif, ...:
float32, EPSG:31370 on the dataset's grid, nodata -9999 for buildings), atlas.json (the figures with units and
meanings, the dataset, reference year, and the share of the outdoor area in each rating and score band), and
<city>-annual.pmtiles (the annual map layers as one PMTiles archive, for static hosting). Every file says what
made the data, as the dataset's attributes record it (model, version, seed, imports: GDAL metadata, atlas.json
"provenance", PMTiles metadata); air_limiting_pollutant.tif.aux.xml names the pollutant codes for GDAL and QGIS.
Files are replaced whole; an interrupted export leaves none half-written.
Cities: ${streetLevelCities().map((c) => c.id).join(', ')}.`;

/** `svc atlas export`. */
export const atlasExportCommand: Command = {
  path: ['atlas', 'export'],
  summary: 'Export a city\'s precomputed figures as Cloud-Optimized GeoTIFFs, atlas.json and a PMTiles archive',
  usage: USAGE,
  async run(args) {
    const { values } = parseArgs({
      args, strict: true, options: { data: { type: 'string' }, city: { type: 'string' }, out: { type: 'string' } },
    });
    if (!values.data) throw new UsageError('--data DIR is required.');
    if (!values.city) throw new UsageError('--city ID is required.');
    if (!values.out) throw new UsageError('--out DIR is required.');
    const city = getCity(values.city);
    if (!city) throw new ValidationError(`Unknown city '${values.city}'; known: ${CITIES.map((c) => c.id).join(', ')}.`);
    const started = performance.now();
    const result = await exportAtlasInThread(resolve(values.data), city.id, resolve(values.out));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const total = result.files.reduce((n, f) => n + f.bytes, 0);
    console.log(`Exported ${result.files.length} files (${(total / 1e6).toFixed(1)} MB) of ${result.dataset} in ${seconds} s -> ${resolve(values.out)}`);
    for (const f of result.files) console.log(`  ${f.file.padEnd(40)} ${(f.bytes / 1024).toFixed(0).padStart(8)} KB`);
    return 0;
  },
};
