/**
 * Colour helpers shared by the scale definitions. Every colour the service publishes is either copied from a cited
 * source (BelAQI, UTCI, Okabe–Ito, ColorBrewer) or generated here by a fixed formula, so the data is reproducible.
 */

/** Colour for missing data on every scale: a neutral mid grey that no class colour uses. */
export const NO_DATA_COLOR = '#BDBDBD';

/** Colour of building footprints on maps drawn by the service (report surroundings): a dark grey, apart from NO_DATA_COLOR. */
export const BUILDING_COLOR = '#5F6368';

/** Formats 0..255 channels as `#RRGGBB` (upper case), the form every scale colour takes. */
export function rgbToHex(r: number, g: number, b: number): string {
  const hex = (c: number): string => Math.round(Math.min(255, Math.max(0, c))).toString(16).padStart(2, '0');
  return `#${hex(r)}${hex(g)}${hex(b)}`.toUpperCase();
}

/**
 * Converts HSL to `#RRGGBB`. `h` in degrees, `s` and `l` in 0..1 (the CSS Color 4 algorithm, which is exact for the
 * hues used here, so the output does not depend on floating-point details).
 */
export function hslToHex(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number): number => {
    const k = (n + h / 30) % 12;
    return l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return rgbToHex(channel(0) * 255, channel(8) * 255, channel(4) * 255);
}

/**
 * `n` colours of the classic blue-to-red rainbow: hue runs linearly from 240° (blue) through cyan, green and yellow
 * to 0° (red), at full saturation and 50 % lightness. Deterministic: the same `n` always yields the same list.
 */
export function rainbow(n: number): string[] {
  if (!Number.isInteger(n) || n < 2) throw new RangeError(`rainbow needs at least two colours, got ${n}`);
  return Array.from({ length: n }, (_, i) => hslToHex(240 * (1 - i / (n - 1)), 1, 0.5));
}

/** Formats a number for a label without float noise (`0.5`, `14.5`, `-13`). */
export function formatNumber(x: number): string {
  return String(Math.round(x * 1000) / 1000);
}
