/**
 * What every exported file says about itself: the dataset's provenance (store/provenance.ts) as GeoTIFF metadata
 * items, and the named classes of a coded figure (the limiting pollutant) with the colours of its map legend, for the
 * band's metadata and its PAM sidecar (GDAL's category names and raster attribute table).
 */
import type { CityConfig } from '../cities/city-types.js';
import type { AtlasFigure } from '../stats/atlas-figures.js';
import { ANNUAL_LAYERS } from '../map/annual-layers.js';
import type { RasterCategory } from '../store/pam-aux.js';
import type { DatasetProvenance } from '../store/provenance.js';

/**
 * The GDAL metadata items of the provenance, one per recorded fact (absent facts are left out): `PROVENANCE` (the
 * sentence shown with the data), `STAND_IN` (`yes` while any value is the stand-in's), `MODEL`, `MODEL_KIND`,
 * `MODEL_VERSION`, `MODEL_SEED`, `SOURCE`, `IMPORTS`, `CONTENT_VERSION`, `DATASET_GENERATED_UTC` and `ATTRIBUTION`.
 */
export function provenanceItems(p: DatasetProvenance, city: CityConfig): Record<string, string> {
  const items: Record<string, string | null> = {
    PROVENANCE: p.label,
    STAND_IN: p.stand_in ? 'yes' : 'no',
    MODEL: p.model,
    MODEL_KIND: p.model_kind,
    MODEL_VERSION: p.model_version,
    MODEL_SEED: p.seed === null ? null : String(p.seed),
    SOURCE: p.source,
    IMPORTS: p.imports.length === 0 ? null
      : p.imports.map((i) => `${i.array} (${i.whole_grid ? 'whole grid' : 'part of the grid'}) from '${i.source}' at ${i.imported_utc}`).join('; '),
    CONTENT_VERSION: p.content_version,
    DATASET_GENERATED_UTC: p.generated_utc,
    ATTRIBUTION: city.attribution,
  };
  return Object.fromEntries(Object.entries(items).filter((e): e is [string, string] => e[1] !== null));
}

/** The classes of a coded figure with the colours its annual-layer legend gives them; undefined for other figures. */
export function figureCategories(figure: AtlasFigure): RasterCategory[] | undefined {
  if (figure.categories === undefined) return undefined;
  const legend = Object.values(ANNUAL_LAYERS).flatMap((l) => l.fields).find((f) => f.figure?.field === figure.field)?.figure?.legend;
  return figure.categories.map((c) => {
    const color = legend?.classes?.find((k) => k.value === c.value)?.color;
    return { ...c, ...(color === undefined ? {} : { color }) };
  });
}

/** The band metadata item naming the classes in the file itself ("1: NO2; 2: PM2.5; 3: PM10"). */
export function categoriesItem(categories: readonly RasterCategory[]): Record<string, string> {
  return { CATEGORIES: categories.map((c) => `${c.value}: ${c.name}`).join('; ') };
}
