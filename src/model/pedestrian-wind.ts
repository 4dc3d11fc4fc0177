/**
 * Pedestrian-level (1.75 m) wind of the stand-in model relative to the open-site reference wind at 10 m: a speed ratio
 * per cell and wind-from sector, and the cell's turbulence, which sets its gusts. Ratios by place, as wind-tunnel and
 * CFD studies of pedestrian wind report them (Blocken & Carmeliet 2004; Blocken, Stathopoulos & Carmeliet 2008;
 * docs/datasets.md has the figures and sources):
 *
 * - street canyon: 0.6 with the wind along the street (channelling), falling to 0.45 (shallow) … 0.3 (deep canyon,
 *   skimming flow) with the wind across it;
 * - courtyard: 0.1 (deep, small) … 0.3 (wide, low), sheltered from every side;
 * - open square: 0.65 in the open, down to 0.4 in the lee of the buildings upwind;
 * - street crossing: corner streams around the block corners and the flow through the gap between blocks, 0.85 with
 *   low flanking buildings up to 1.25 with tall ones — the only places faster than the open site.
 *
 * Turbulence is σu at pedestrian level relative to the reference wind (σu / U10): shear layers shed at roof level
 * scale with the wind above the roofs, not with the slow flow below them, so sheltered places keep a good part of the
 * open site's gustiness (σu / U10 = 0.22 there): the local turbulence intensity σu / U is high where the ratio is low.
 * A cell's gust is its mean plus g·σu, so sheltered gusts stay well below the open site's and the fastest corner gusts
 * about a fifth above it (cell-physics.ts, storm.ts).
 */

/** Ratios and turbulence (σu / U10) by place. */
export const PEDESTRIAN_WIND = Object.freeze({
  streetAlong: 0.55,
  streetAcrossShallow: 0.42,
  streetAcrossDeep: 0.28,
  streetTurbulence: [0.11, 0.14] as const,
  courtyard: [0.1, 0.3] as const,
  courtyardTurbulence: 0.07,
  square: [0.35, 0.6] as const,
  squareTurbulence: 0.12,
  corner: [0.5, 1.25] as const,
  cornerTurbulence: 0.22,
  /** No cell, whatever its fine structure (fine-features.ts), is faster than this × the reference wind. */
  ceiling: 1.3,
});

/** What a cell is, for its wind: `kind` 0 street, 1 courtyard, 2 square; `axis` 0 north–south, 1 east–west, 2 crossing. */
export interface WindPlace {
  readonly kind: number;
  readonly axis: number;
  /** Street-canyon index (≈ height / width), 0..3. */
  readonly canyon: number;
  /** Horizon elevation (radians) per sector, looking towards where the wind comes from. */
  readonly horizon: ArrayLike<number>;
}

/**
 * Writes the speed ratio of each wind-from sector into `ratios` (one per sector, sector 0 = wind from the north,
 * clockwise, as `place.horizon`) and returns the cell's turbulence σu / U10.
 */
export function pedestrianWind(place: WindPlace, ratios: Float32Array): number {
  const P = PEDESTRIAN_WIND;
  const SECTORS = ratios.length;
  const depth = Math.min(1, place.canyon / 2);
  let maxTan = 0;
  for (let s = 0; s < SECTORS; s++) maxTan = Math.max(maxTan, Math.tan(place.horizon[s]));
  for (let s = 0; s < SECTORS; s++) {
    // How much the upwind buildings rise above the pedestrian: 0 open … 1 at 45° or more.
    const upwind = Math.min(1, Math.tan(place.horizon[s]));
    const theta = (s * 2 * Math.PI) / SECTORS;
    if (place.kind === 1) {
      ratios[s] = lerp(P.courtyard[1], P.courtyard[0], Math.min(1, Math.tan(place.horizon[s]) / 1.5));
    } else if (place.kind === 2) {
      ratios[s] = lerp(P.square[1], P.square[0], upwind);
    } else if (place.axis === 2) {
      // Corner streams grow with the height of the flanking blocks (the steepest horizon, ≈ height / distance to the
      // nearest corner): none between low blocks, where a crossing is open on four sides like a small square, fully
      // with 35–40 m blocks.
      ratios[s] = lerp(P.corner[0], P.corner[1], clamp01((maxTan - 0.8) / 2.5));
    } else {
      const along = Math.cos(theta - (place.axis === 1 ? Math.PI / 2 : 0)) ** 2;
      const across = lerp(P.streetAcrossShallow, P.streetAcrossDeep, depth);
      ratios[s] = lerp(across, P.streetAlong, along);
    }
  }
  if (place.kind === 1) return P.courtyardTurbulence;
  if (place.kind === 2) return P.squareTurbulence;
  if (place.axis === 2) return P.cornerTurbulence;
  return lerp(P.streetTurbulence[0], P.streetTurbulence[1], depth);
}

function lerp(a: number, b: number, f: number): number {
  return a + (b - a) * f;
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}
