/**
 * `svc atlas export`: a city's precomputed figures as files a GIS opens. One Cloud-Optimized GeoTIFF per figure
 * (float32, EPSG:31370 on the dataset's exact grid, nodata where a cell is a building or the metric is not modelled),
 * `atlas.json`: the figures with units and meanings, the dataset, its reference year, when the precompute and the
 * export ran, and city-wide summaries (the share of the outdoor area in each label band of every block's rating and
 * score), and `<city>-annual.pmtiles`, the annual map layers as one PMTiles archive (atlas-pmtiles.ts). Every file
 * carries the dataset's provenance, read from the dataset's own attributes (atlas-metadata.ts), and a coded figure's
 * GeoTIFF gets a PAM sidecar naming its classes. Each file is written under a temporary name and renamed into place,
 * so an interrupted export leaves no partial file under a final name. A city without a precompute, with one of
 * another content version of the dataset, or with one made by an earlier version that lacks figures, is refused
 * before anything is written, naming the command to run.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CityConfig } from '../cities/city-types.js';
import { precomputedDir } from '../compute/datasets/dataset-cache.js';
import { ValidationError } from '../errors.js';
import { checkPrecomputable } from '../services/precompute.js';
import { scoreLabel, type ScoreLabel } from '../stats/scoring.js';
import { writeFileAtomic, writeFileAtomicWith } from '../store/atomic-dir.js';
import { writeCog } from '../store/cog-writer.js';
import type { GridGeometry } from '../store/dataset-types.js';
import { openGridGroup, type GridGroup } from '../store/grid-group-reader.js';
import { categoriesAuxXml } from '../store/pam-aux.js';
import { provenanceOf, type DatasetProvenance } from '../store/provenance.js';
import { openDataset } from '../store/zarr-reader.js';
import { dataAttribution } from '../map/data-attribution.js';
import { categoriesItem, figureCategories, provenanceItems } from './atlas-metadata.js';
import { offeredAnnualLayers, writeAnnualArchive } from './atlas-pmtiles.js';
import { ATLAS_FIGURES, figureFile, type AtlasBlock } from '../stats/atlas-figures.js';
import { describePrecomputeProblem, precomputeProblem } from '../compute/precompute/precompute-problem.js';

/** Value written where a cell has no figure. */
const ATLAS_NODATA = -9999;

/** One exported file. */
export interface ExportedFile {
  readonly file: string;
  readonly bytes: number;
}

/** What an export wrote. */
export interface AtlasExport {
  readonly dataset: string;
  readonly files: readonly ExportedFile[];
}

/** Share of the outdoor area per label band, %, one decimal. */
type BandShares = Record<ScoreLabel, number>;

/** A block's city-wide summary in atlas.json. */
interface BlockSummary {
  readonly outdoor_cells: number;
  readonly rating_bands_pct?: BandShares;
  readonly score_bands_pct?: BandShares;
}

const LABELS: readonly ScoreLabel[] = ['Excellent', 'Very good', 'Good', 'Moderate', 'Poor', 'Bad'];

/** Counts the cells with a value in each label band, band by band; `result()` gives the shares. */
function bandCounter() {
  const counts = new Map<ScoreLabel, number>(LABELS.map((l) => [l, 0]));
  let cells = 0;
  return {
    add(values: Float32Array): void {
      for (const v of values) {
        if (Number.isNaN(v)) continue;
        cells++;
        const label = scoreLabel(v);
        counts.set(label, counts.get(label)! + 1);
      }
    },
    result(): { cells: number; pct: BandShares } {
      const pct = Object.fromEntries(
        LABELS.map((l) => [l, cells === 0 ? 0 : Math.round((counts.get(l)! * 1000) / cells) / 10]),
      ) as BandShares;
      return { cells, pct };
    },
  };
}

/** Exports the atlas of `city` from the data directory `dataDir` into `outDir`. */
export async function exportAtlas(dataDir: string, city: CityConfig, outDir: string): Promise<AtlasExport> {
  checkPrecomputable(city);
  const reader = await openDataset(join(dataDir, city.dataset));
  const { grid, attrs } = reader;
  const rerun = `svc precompute --data ${dataDir} --city ${city.id}`;
  const group = await openGridGroup(precomputedDir(dataDir, city.dataset), grid.ny, grid.nx);
  if (group === undefined) {
    throw new ValidationError(`City '${city.id}' has no precompute in ${dataDir}; run \`${rerun}\` first.`);
  }
  const problem = precomputeProblem(group, attrs.content_version);
  if (problem !== undefined) {
    throw new ValidationError(
      `The precompute of '${city.dataset}' in ${dataDir} ${describePrecomputeProblem(problem, attrs.content_version)}; run \`${rerun}\` again.`,
    );
  }
  return writeAtlas({
    city, grid, group, referenceYear: attrs.reference_year, contentVersion: attrs.content_version, provenance: provenanceOf(attrs),
  }, outDir);
}

/** A current precompute, opened: what the atlas is written from. */
export interface AtlasSource {
  readonly city: CityConfig;
  readonly grid: GridGeometry;
  readonly group: GridGroup;
  readonly referenceYear: number;
  readonly contentVersion: string;
  /** What made the dataset (store/provenance.ts), written into every file. */
  readonly provenance: DatasetProvenance;
}

/** Writes the atlas files of `source` into `outDir` (the checks done: exportAtlas). */
export async function writeAtlas(source: AtlasSource, outDir: string): Promise<AtlasExport> {
  const { city, grid, group, provenance } = source;
  const figures = ATLAS_FIGURES;
  const provenanceMeta = provenanceItems(provenance, city);
  const res = grid.resolution_m;
  const origin = { x: grid.x0 - res / 2, y: grid.y0 + res / 2 };
  const summaries: Partial<Record<AtlasBlock, BlockSummary>> = {};
  const files: ExportedFile[] = [];
  await mkdir(outDir, { recursive: true });
  for (const figure of figures) {
    const file = figureFile(figure);
    const categories = figureCategories(figure);
    if (categories !== undefined) {
      // Written before its raster, so a reader never finds the raster without the names of its classes.
      const aux = categoriesAuxXml(categories);
      await writeFileAtomic(join(outDir, `${file}.aux.xml`), aux);
      files.push({ file: `${file}.aux.xml`, bytes: Buffer.byteLength(aux) });
    }
    const counter = bandCounter();
    const spec = {
      epsg: grid.crs_epsg, originX: origin.x, originY: origin.y, cellSize: res, nodata: ATLAS_NODATA,
      resampling: figure.resampling, description: figure.field, unit: figure.unit,
      metadata: { FIGURE: figure.field, MEANING: figure.meaning, CITY: city.id, DATASET: city.dataset, ...provenanceMeta },
      ...(categories === undefined ? {} : { bandMetadata: categoriesItem(categories) }),
    };
    const bytes = await writeFileAtomicWith(join(outDir, file), (tmp) => writeCog(tmp, spec, {
      width: grid.nx,
      height: grid.ny,
      async readRows(r0, r1) {
        const values = await group.readRows(figure.grid, r0, r1);
        counter.add(values);
        return values;
      },
    }));
    files.push({ file, bytes });
    const kind = figure.field.endsWith('.rating') ? 'rating_bands_pct'
      : figure.field.endsWith('.score') ? 'score_bands_pct' : undefined;
    if (kind !== undefined) {
      const { cells, pct } = counter.result();
      summaries[figure.block] = { ...summaries[figure.block], outdoor_cells: cells, [kind]: pct };
    }
  }
  const archiveFile = `${city.id}-annual.pmtiles`;
  const archive = await writeFileAtomicWith(join(outDir, archiveFile), (tmp) => writeAnnualArchive(tmp, {
    city, grid, group, referenceYear: source.referenceYear, provenance,
  }));
  files.push({ file: archiveFile, bytes: archive.bytes });
  const atlas = {
    city: city.id,
    dataset: city.dataset,
    reference_year: source.referenceYear,
    content_version: source.contentVersion,
    provenance,
    attribution: dataAttribution(city, provenance.label),
    crs: `EPSG:${grid.crs_epsg}`,
    geotransform: [origin.x, res, 0, origin.y, 0, -res],
    width: grid.nx,
    height: grid.ny,
    sampling: 'point',
    nodata: ATLAS_NODATA,
    precompute_generated_utc: group.attrs.generated_utc ?? null,
    generated_utc: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    figures: figures.map((f) => ({
      field: f.field, file: figureFile(f), unit: f.unit, meaning: f.meaning,
      ...(f.categories === undefined ? {} : { categories: f.categories, categories_file: `${figureFile(f)}.aux.xml` }),
    })),
    annual_tiles: {
      file: archiveFile, format: 'PMTiles v3, MVT tiles gzipped', layers: offeredAnnualLayers(city).map((l) => l.sourceLayer),
      minzoom: archive.minZoom, maxzoom: archive.maxZoom, tiles: archive.tiles,
    },
    summaries,
  };
  const json = `${JSON.stringify(atlas, null, 2)}\n`;
  await writeFileAtomic(join(outDir, 'atlas.json'), json);
  files.push({ file: 'atlas.json', bytes: Buffer.byteLength(json) });
  return { dataset: city.dataset, files };
}
