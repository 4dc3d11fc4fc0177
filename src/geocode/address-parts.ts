/**
 * A geocoding result as structured parts, whatever geocoder produced it: the embedded gazetteer (whose display form
 * is parsed back), an HTTP geocoder speaking this service's contract (same display form), Nominatim or Photon (their
 * own address objects). The address check (address-match.ts) compares a query with these parts, and the display
 * address of a hit is built from them, so every geocoder's answers read alike.
 */

/**
 * How precise a result is: `address` a street with a house number, `street` a street without one, `municipality`
 * the centre of a municipality (or of a district or postcode area inside one), `place` a locality abroad. The first
 * two are street level; the others name an area (see `isStreetLevel`).
 */
export type ResultKind = 'address' | 'street' | 'municipality' | 'place';

/** True for the kinds that locate a street (`address`, `street`); false for area-level kinds. */
export function isStreetLevel(kind: ResultKind): boolean {
  return kind === 'address' || kind === 'street';
}

/**
 * The parts of one result. Names are display text; where a geocoder gives one name in several languages ("Rue
 * Neuve - Nieuwstraat") each language is a separate alternative, and the display address uses the one the query
 * matched best, so it stays in one language.
 */
export interface AddressParts {
  readonly kind: ResultKind;
  /** The street's name in each language; present for `address` and `street`. */
  readonly street?: readonly string[] | undefined;
  readonly houseNumber?: string | undefined;
  readonly postcode?: string | undefined;
  /** The municipality's name in each language (or the locality's, for `place`); the first is displayed by default. */
  readonly municipality: readonly string[];
  /** Other locality names the query may use instead of the municipality (district, suburb); never displayed. */
  readonly localities?: readonly string[] | undefined;
  /** ISO 3166-1 alpha-2, lower case, when known. */
  readonly countryCode?: string | undefined;
  /** The country's name as the result gives it, for `place` display ("Lille, France"). */
  readonly country?: string | undefined;
}

/** Splits a multilingual name the way OpenStreetMap writes Belgian names: "Rue Neuve - Nieuwstraat", "A / B". */
export function nameAlternatives(name: string | undefined): string[] {
  if (name === undefined) return [];
  return name
    .split(/\s+[-\/]\s+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Words OpenStreetMap puts before some municipality names to tell the town from its region ("Ville de Bruxelles"). */
const ADMIN_PREFIX = /^(?:ville\s+de|ville\s+d'|commune\s+de|commune\s+d'|stad|gemeente|stadt|gemeinde|city\s+of)\s+(?=\S)/iu;

/** The alternatives of a municipality name, each without an administrative prefix: "Bruxelles", "Brussel". */
export function municipalityAlternatives(name: string | undefined): string[] {
  return nameAlternatives(name).map((n) => n.replace(ADMIN_PREFIX, '').trim());
}

/**
 * Parses this service's own one-language display form: `Street Number, Postcode Municipality` (address),
 * `Street, Postcode Municipality` (street), `Postcode Municipality` (municipality) or `Locality, Country` (place).
 * Undefined for text in none of these forms.
 */
export function parseDisplayAddress(text: string): AddressParts | undefined {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.some((p) => p === '') || parts.length > 2) return undefined;
  const area = /^(\d{4})\s+(\S.*)$/.exec(parts[parts.length - 1]);
  if (parts.length === 1) {
    return area ? { kind: 'municipality', postcode: area[1], municipality: [area[2]], countryCode: 'be' } : undefined;
  }
  if (!area) return { kind: 'place', municipality: [parts[0]], country: parts[1] };
  const numbered = /^(\S.*?)\s+(\d+[a-zA-Z]?)$/.exec(parts[0]);
  const common = { postcode: area[1], municipality: [area[2]], countryCode: 'be' } as const;
  return numbered
    ? { kind: 'address', street: [numbered[1]], houseNumber: numbered[2], ...common }
    : { kind: 'street', street: [parts[0]], ...common };
}

/** Which alternative of each multilingual name to display (indexes into `street` and `municipality`). */
export interface DisplayChoice {
  readonly street: number;
  readonly municipality: number;
}

/** The one-language display address of `parts` (the form `parseDisplayAddress` reads back). */
export function formatAddress(parts: AddressParts, choice: DisplayChoice = { street: 0, municipality: 0 }): string {
  const town = parts.municipality[choice.municipality] ?? parts.municipality[0] ?? '';
  if (parts.kind === 'place') return parts.country ? `${town}, ${parts.country}` : town;
  const area = [parts.postcode, town].filter((x) => x !== undefined && x !== '').join(' ');
  const street = parts.street?.[choice.street] ?? parts.street?.[0];
  if (street === undefined) return area;
  const line = parts.houseNumber ? `${street} ${parts.houseNumber}` : street;
  return area === '' ? line : `${line}, ${area}`;
}
