/**
 * Extents of the dataset grids, in Belgian Lambert 72 (EPSG:31370) metres; the data generator writes grids over exactly
 * these rectangles and the city boundaries are drawn from them (docs/geography.md).
 *
 * High-resolution zones have corners on a 40 m lattice, so grids of 1, 2, 4, 5, 8, 10, 20 or 40 m tile them exactly and
 * every zone's cells share one alignment. The nationwide extent is Belgium's boundary box expanded to 20 km multiples,
 * so both a 5 km and a 20 km grid tile it.
 */
import type { LambertRect } from '../geo/rect-ring.js';

/** A dataset extent: an axis-aligned rectangle in EPSG:31370 metres. */
export type ZoneRect = LambertRect;

/**
 * Brussels zone: 1600 m × 1200 m of the Pentagon around Grand-Place. Its centre (148880, 170520) lies about 180 m
 * south-south-east of Grand-Place, shifted so that Place du Grand Sablon (lower Sablon) and Place de la Monnaie both
 * fit; it holds the Bourse, Brussels-Central station, Mont des Arts and Place Royale.
 */
export const BRUSSELS_ZONE: LambertRect = Object.freeze({ xmin: 148080, ymin: 169920, xmax: 149680, ymax: 171120 });

/**
 * Ghent zone: 1000 m × 800 m centred on (104620, 194040), about 15 m from Korenmarkt (104619, 194025); it holds
 * Graslei, Korenlei, Gravensteen, the Belfry, Saint Bavo's Cathedral and Vrijdagmarkt.
 */
export const GHENT_ZONE: LambertRect = Object.freeze({ xmin: 104120, ymin: 193640, xmax: 105120, ymax: 194440 });

/**
 * Extent of the nationwide low-resolution grid: the Lambert 72 box of Belgium's boundary
 * (22307, 21192)–(294985, 243727), expanded outwards to multiples of 20 km. 280 km × 240 km: 56 × 48 cells at 5 km,
 * 14 × 12 at 20 km.
 */
export const NATIONWIDE_EXTENT: LambertRect = Object.freeze({
  xmin: 20_000,
  ymin: 20_000,
  xmax: 300_000,
  ymax: 260_000,
});
