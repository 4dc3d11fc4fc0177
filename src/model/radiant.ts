import { clearSkyDirectNormal } from './solar.js';

/**
 * Mean radiant temperature of a standing pedestrian, as Tmrt − Ta, from the sun, the sky and a street's sky view.
 *
 * Formulation: the half-space form of Di Napoli et al. 2020 (Int J Biometeorol 64:1233–1245; ECMWF thermofeel), of
 * which SOLWEIG's six directions (Lindberg et al. 2008) are a refinement:
 *
 *   Tmrt⁴ = 0.5 · T_up⁴ + 0.5 · T_down⁴ + (α_SW / ε_p) · S / σ
 *   S     = f_p(β) · I_dir · (1 − shaded) + 0.5 · K_up + 0.5 · ρ_g · K_ground
 *
 * where T_up⁴ mixes sky and walls by skyView, K_up is the short-wave arriving from the upper half-space (sky diffuse
 * over the sky view, wall reflection elsewhere) and K_ground the global irradiance on the nearby ground;
 * α_SW = 0.7 and ε_p = 0.97 (Höppe 1992; Thorsson et al. 2007); f_p is the projected-area factor of a rotationally
 * symmetric standing person, 0.308 · cos(β · (0.998 − β²/50000)) with β in degrees (fit to Fanger 1970).
 *
 * Surface temperatures are simplified (they are not modelled by this stand-in), set relative to Ta:
 * - sky, as seen by a vertical body: Ta − (1.5 + 6.5 · (1 − cloud)) K. A horizontal surface sees a clear sky ~15–20 K
 *   below Ta (Swinbank 1963), but a standing body views mostly the near-horizon sky, whose emissivity approaches 1
 *   (Unsworth & Monteith 1975), roughly halving the deficit;
 * - walls: Ta + 1.5 K (stored heat) + 0.01 K per W/m² they receive;
 * - ground (paving, albedo ρ_g = 0.15): Ta + 2 K + 0.016 K per W/m² it receives, giving sunlit asphalt ~15 K above
 *   air at 850 W/m²; the +2 K stands for heat stored in paving, which keeps urban surfaces above air temperature
 *   through the night (Oke 1987, "Boundary Layer Climates").
 *
 * Resulting ranges (test/model/radiant.test.ts): clear night with open sky ≈ −3 K, overcast night ≈ 0 K; summer midday
 * in full sun +25…+35 K; shade a few K.
 */

const SIGMA = 5.670374419e-8;
const ALPHA_SW = 0.7;
const EPSILON_P = 0.97;
const GROUND_ALBEDO = 0.15;
const WALL_ALBEDO = 0.3;
const RAD = Math.PI / 180;

/** Night-time cloud fraction assumed when the caller gives none: about the reference year's annual mean. */
const DEFAULT_CLOUD = 0.7;
/** Air temperature assumed when the caller gives none, °C; Tmrt − Ta depends on it only through T⁴ (~±2 K). */
const DEFAULT_TA = 15;

/** Projected-area factor of a standing person for the beam at sun elevation β (degrees): 0.31 low … 0.08 overhead. */
export function projectedAreaFactor(elevationDeg: number): number {
  if (elevationDeg <= 0) return 0;
  const b = Math.min(elevationDeg, 90);
  return 0.308 * Math.cos(b * (0.998 - (b * b) / 50000) * RAD);
}

/**
 * Tmrt − Ta (K) of a standing person. `directWm2` is direct normal irradiance (beam on a surface facing the sun),
 * `diffuseWm2` diffuse horizontal irradiance; `shaded` 0 (sunlit) … 1 (beam blocked, here and on the nearby ground);
 * `skyView` 0…1. `cloud` (0…1) sets the sky's long-wave deficit, which matters most at night; when omitted it is
 * inferred by day from the beam's share of its clear-sky value (exact for irradiance from model/solar.ts) and taken as
 * DEFAULT_CLOUD at night. `ta` (°C) is the level of the T⁴ balance. Out-of-range fractions are clamped.
 */
export function meanRadiantDelta(
  sunElevationDeg: number,
  directWm2: number,
  diffuseWm2: number,
  shaded: number,
  skyView: number,
  cloud?: number,
  ta: number = DEFAULT_TA,
): number {
  const sun = 1 - clamp01(shaded);
  const sky = clamp01(skyView);
  const up = sunElevationDeg > 0;
  const dir = up ? Math.max(0, directWm2) : 0;
  const dif = up ? Math.max(0, diffuseWm2) : 0;
  const sinB = up ? Math.sin(sunElevationDeg * RAD) : 0;
  const cosB = up ? Math.cos(sunElevationDeg * RAD) : 0;

  // Short-wave reaching the ground and the walls around the person.
  const ground = sun * dir * sinB + sky * dif;
  const wall = 0.3 * dir * cosB + 0.5 * dif; // canyon-average irradiance of walls, sunlit and shaded faces together
  const shortwave =
    projectedAreaFactor(sunElevationDeg) * dir * sun +
    0.5 * (sky * dif + (1 - sky) * WALL_ALBEDO * wall) +
    0.5 * GROUND_ALBEDO * ground;

  const t = ta + 273.15;
  const n = cloud ?? (up ? 1 - dir / clearSkyDirectNormal(sunElevationDeg) : DEFAULT_CLOUD);
  const tSky = t - (1.5 + 6.5 * (1 - clamp01(n)));
  const tWall = t + 1.5 + 0.01 * wall;
  const tGround = t + 2 + 0.016 * ground;
  const upper = sky * tSky ** 4 + (1 - sky) * tWall ** 4;
  const tmrt4 = 0.5 * upper + 0.5 * tGround ** 4 + ((ALPHA_SW / EPSILON_P) * shortwave) / SIGMA;
  return Math.sqrt(Math.sqrt(tmrt4)) - t;
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}
