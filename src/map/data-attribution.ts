/**
 * The attribution shown with a city's data: first what made the data (the dataset's provenance label, from its own
 * attributes: "Synthetic data, not a simulation or measurements of the city: svc-api stand-in city model (version 4,
 * seed 42).") so that a map over a basemap never passes for measurements, then the city's attribution (model and
 * boundary sources). TileJSON documents, the atlas's PMTiles metadata and the map page show this one text.
 */
import type { CityConfig } from '../cities/city-types.js';

/** The attribution of `city`'s data; the city's alone when the provenance is unknown (an upstream that sends none). */
export function dataAttribution(city: CityConfig, provenanceLabel: string | undefined): string {
  return provenanceLabel === undefined || provenanceLabel === '' ? city.attribution : `${provenanceLabel} ${city.attribution}`;
}
