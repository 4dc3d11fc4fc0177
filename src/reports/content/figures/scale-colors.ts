/**
 * Every data colour of a report, read from the published scales (src/scales/): BelAQI classes, the BelAQI NO2 classes,
 * the wind comfort classes (`wind-nen8100`), the UTCI classes and the relative UTCI gradient, plus the building and
 * no-data colours. Charts, maps and legends call these; none holds a colour of its own.
 */
import { getScale, type Scale, type ScaleClass } from '../../../scales/index.js';
import { belaqiClass, utciClass } from '../../../scales/classify.js';
import { BUILDING_COLOR, NO_DATA_COLOR, rgbToHex } from '../../../scales/palette.js';

function scale(id: string): Scale {
  const found = getScale(id);
  if (found === undefined) throw new Error(`Scale ${id} is not published.`);
  return found;
}

const BELAQI = scale('air-belaqi');
const NO2 = scale('air-no2');
const WIND = scale('wind-nen8100');
const UTCI = scale('thermal-utci');
const UTCI_RELATIVE = scale('thermal-utci-relative');

/** Colour of missing data and of areas outside a dataset. */
export const NO_DATA = NO_DATA_COLOR;
/** Colour of buildings. */
export const BUILDING = BUILDING_COLOR;

function byValue(s: Scale, value: number): ScaleClass {
  const cls = s.classes.find((c) => c.value === value);
  if (cls === undefined) throw new RangeError(`Scale ${s.id} has no class ${value}.`);
  return cls;
}

/** Colour of BelAQI class 1–10. */
export function belaqiColor(cls: number): string {
  return byValue(BELAQI, cls).color;
}

/** The BelAQI NO2 classes (value, bounds, colour), in order. */
export function no2Classes(): readonly ScaleClass[] {
  return NO2.classes;
}

/** BelAQI NO2 class (1–10) of a concentration, or undefined for no reading. */
export function no2ClassOf(ugm3: number): number | undefined {
  return belaqiClass('no2', ugm3);
}

/** Colour of a NO2 concentration in the BelAQI NO2 classes. */
export function no2Color(ugm3: number): string {
  const cls = no2ClassOf(ugm3);
  return cls === undefined ? NO_DATA : byValue(NO2, cls).color;
}

/** Colour of wind class 1–5 on the default wind comfort scale. */
export function windColor(cls: number): string {
  return byValue(WIND, cls).color;
}

/** Colour of the UTCI class of a value (°C). */
export function utciColor(celsius: number): string {
  const cls = utciClass(celsius);
  return cls === undefined ? NO_DATA : byValue(UTCI, cls).color;
}

/** Colour of UTCI class 1–10. */
export function utciClassColor(cls: number): string {
  return byValue(UTCI, cls).color;
}

function channels(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

/** The stops of the relative UTCI gradient: position 0..1 and colour. */
export function relativeStops(): readonly { readonly at: number; readonly color: string }[] {
  return UTCI_RELATIVE.classes.map((c) => ({ at: c.bounds?.from ?? 0, color: c.color }));
}

/** Colour at position `p` (clamped to 0..1) of the relative UTCI gradient, interpolated between its stops. */
export function relativeColor(p: number): string {
  const stops = relativeStops();
  const x = Math.min(1, Math.max(0, p));
  let i = 0;
  while (i < stops.length - 2 && x > stops[i + 1].at) i++;
  const a = stops[i];
  const b = stops[i + 1];
  const f = b.at === a.at ? 0 : (x - a.at) / (b.at - a.at);
  const [ar, ag, ab] = channels(a.color);
  const [br, bg, bb] = channels(b.color);
  return rgbToHex(ar + (br - ar) * f, ag + (bg - ag) * f, ab + (bb - ab) * f);
}
