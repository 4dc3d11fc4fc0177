/**
 * The annual map layers of the city atlas: `annual_air`, `annual_wind` and `annual_thermal`, static tilesets drawn
 * from the city's whole-city precompute (one polygon per cell, or per block of cells at low zooms, like the live
 * layers), offered where the city offers the metric's live layer and a current precompute exists. Each feature
 * carries every figure of its block (stats/atlas-figures.ts) under the figure's name within the block
 * (`rating`, `good_pct`, `annual_mean_ugm3_no2`, …), published to the envelope's decimals, with the legend that
 * colours it. These layers extend the contract: its four layers, its nine scales and `/cities` are unchanged.
 */
import type { MapLayer, StatMetric } from '../cities/city-types.js';
import {
  ATLAS_FIGURES, figureDecimals, figureProperty, type AtlasBlock, type AtlasFigure,
} from '../stats/atlas-figures.js';
import {
  countLegend, exceedanceLegend, existingScaleLegend, goodShareLegend, limitingPollutantLegend, ratingLegend,
  type FigureLegend, type FigureTarget,
} from '../scales/figure-legends.js';
import type { MapLayerDef, TileField } from './map-layers.js';

/** The annual layers' ids. */
export type AnnualLayer = 'annual_air' | 'annual_wind' | 'annual_thermal';

/** Existing scales that colour figures of the same quantity as a live field. */
const SAME_QUANTITY: Readonly<Record<string, string>> = {
  'air.annual_mean_ugm3.no2': 'air-no2',
  'air.annual_mean_ugm3.pm25': 'air-pm25',
  'air.annual_mean_ugm3.pm10': 'air-pm10',
  'wind.worst_moment_ms': 'wind-mean-rainbow',
  'wind.mean_ucomfort_ms': 'wind-mean-rainbow',
  'wind.p95_ucomfort_ms': 'wind-mean-rainbow',
  'wind.max_gust_ms': 'wind-gust-rainbow',
};

/** The legend that colours `figure`. */
function figureLegend(figure: AtlasFigure): FigureLegend {
  const target: FigureTarget = {
    id: `annual-${figure.block}-${figureProperty(figure)}`.replace(/_/g, '-'),
    metric: figure.block, property: figureProperty(figure), name: figure.label, unit: figure.unit,
  };
  const existing = SAME_QUANTITY[figure.field] ?? (figure.unit === '°C' ? 'thermal-utci' : undefined);
  if (existing !== undefined) return existingScaleLegend(target, existing);
  if (figure.unit === 'out of 10') return ratingLegend(target);
  if (figure.unit === 'days' || figure.unit === 'nights') return countLegend(target);
  if (figure.field === 'air.limiting_pollutant') return limitingPollutantLegend(target);
  if (figure.field.startsWith('wind.exceedance_pct.')) return exceedanceLegend(target);
  if (figure.unit === '%') return goodShareLegend(target);
  throw new Error(`No legend for figure '${figure.field}'.`);
}

/** The tile field of a figure. */
function figureField(figure: AtlasFigure): TileField {
  return {
    name: figureProperty(figure), source: figure.grid, decimals: figureDecimals(figure), label: figure.label,
    unit: figure.unit, meaning: figure.meaning, aggregate: figure.resampling === 'nearest' ? 'mode' : 'mean',
    figure: { field: figure.field, legend: figureLegend(figure) },
  };
}

const NAMES: Readonly<Record<AtlasBlock, string>> = { air: 'air quality', wind: 'wind comfort and safety', thermal: 'thermal comfort' };

function annualLayer(block: AtlasBlock & StatMetric): MapLayerDef {
  const id = `annual_${block}` as AnnualLayer;
  return {
    id, kind: 'annual', metric: block, sourceLayer: id,
    description: `Annual ${NAMES[block]} of the reference year, one polygon per grid cell (or block of cells at low zooms); ` +
      'each figure equals the same field of the annual statistics at the cell centre.',
    fields: ATLAS_FIGURES.filter((f) => f.block === block).map(figureField),
  };
}

/** The annual layers, by id, in catalog order. */
export const ANNUAL_LAYERS: Readonly<Record<AnnualLayer, MapLayerDef>> = Object.freeze({
  annual_air: annualLayer('air'),
  annual_wind: annualLayer('wind'),
  annual_thermal: annualLayer('thermal'),
});

/** The live layer whose metric an annual layer shows: the city must offer it for the annual layer to be offered. */
export function liveLayerOf(layer: MapLayerDef): MapLayer {
  return layer.metric as MapLayer;
}
