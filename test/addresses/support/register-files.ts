/**
 * A small register in the exact BeSt Address format, written for the tests: the streets each rule needs, in the three
 * regional files. Points are laid along straight streets, 3.3 m per number (even numbers one side, odd the other).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RegisterRecord } from '../../../src/addresses/register-csv.js';
import { REGISTER_HEADER, registerLine } from '../../../src/addresses/synthetic-register.js';

type Row = Partial<RegisterRecord>;

interface Town {
  readonly id: string;
  readonly region: 'BE-BRU' | 'BE-VLG' | 'BE-WAL';
  readonly postcode: string;
  readonly fr?: string;
  readonly nl?: string;
  readonly de?: string;
  readonly postFr?: string;
  readonly postNl?: string;
}

export const BRUSSELS: Town = { id: '21004', region: 'BE-BRU', postcode: '1000', fr: 'Bruxelles', nl: 'Brussel', postFr: 'Bruxelles (Centre)', postNl: 'Brussel (Centrum)' };
const IXELLES: Town = { id: '21009', region: 'BE-BRU', postcode: '1050', fr: 'Ixelles', nl: 'Elsene', postFr: 'Ixelles', postNl: 'Elsene' };
const UCCLE: Town = { id: '21016', region: 'BE-BRU', postcode: '1180', fr: 'Uccle', nl: 'Ukkel', postFr: 'Uccle', postNl: 'Ukkel' };
const GENT: Town = { id: '44021', region: 'BE-VLG', postcode: '9000', nl: 'Gent', postNl: 'Gent' };
const LEUVEN: Town = { id: '24062', region: 'BE-VLG', postcode: '3000', nl: 'Leuven', postNl: 'Leuven' };
const NAMUR: Town = { id: '92094', region: 'BE-WAL', postcode: '5000', fr: 'Namur', postFr: 'Namur' };
const WAVRE: Town = { id: '25112', region: 'BE-WAL', postcode: '1300', fr: 'Wavre', postFr: 'Wavre' };
const EUPEN: Town = { id: '63023', region: 'BE-WAL', postcode: '4700', fr: 'Eupen', de: 'Eupen', postFr: 'Eupen' };
const BOUILLON: Town = { id: '84010', region: 'BE-WAL', postcode: '6830', fr: 'Bouillon', postFr: 'Bouillon' };
const VRESSE: Town = { id: '91143', region: 'BE-WAL', postcode: '6830', fr: 'Vresse-sur-Semois', postFr: 'Vresse-sur-Semois' };

let nextId = 1;

/** One record of `town`'s street `street` (names by language), number `number`, at (lat, lon). */
function record(town: Town, streetId: string, street: { fr?: string; nl?: string; de?: string }, number: string, lat: number, lon: number, extra: Row = {}): Row {
  return {
    'EPSG:31370_x': '149000.00', 'EPSG:31370_y': '170000.00', 'EPSG:4326_lat': lat.toFixed(7), 'EPSG:4326_lon': lon.toFixed(7),
    address_id: String(nextId++), box_number: '', house_number: number, municipality_id: town.id,
    municipality_name_de: town.de ?? '', municipality_name_fr: town.fr ?? '', municipality_name_nl: town.nl ?? '',
    postcode: town.postcode, postname_fr: town.postFr ?? '', postname_nl: town.postNl ?? '', street_id: streetId,
    streetname_de: street.de ?? '', streetname_fr: street.fr ?? '', streetname_nl: street.nl ?? '', region_code: town.region,
    status: 'current', ...extra,
  };
}

/** Numbers along a straight street from (lat0, lon0) going north-east, 3.3 m per number unit. */
function along(town: Town, streetId: string, names: { fr?: string; nl?: string; de?: string }, numbers: readonly (number | string)[], lat0: number, lon0: number): Row[] {
  return numbers.map((n) => {
    const k = parseInt(String(n), 10);
    const side = k % 2 === 0 ? 1 : -1;
    const at = k + (String(n) === String(k) ? 0 : 0.5);
    return record(town, streetId, names, String(n), lat0 + at * 2.1e-5 + side * 5e-5, lon0 + at * 3.3e-5);
  });
}

const evens = (from: number, to: number) => Array.from({ length: (to - from) / 2 + 1 }, (_, i) => from + 2 * i);

/** The point of Rue de la Loi / Wetstraat 16 (as the register gives it). */
export const LOI_16 = { lat: 50.84616, lon: 4.36653 };
/** Rue du Marché aux Herbes / Grasmarkt 10: inside the fixture's street-level grid. */
export const HERBES_10 = { lat: 50.8479, lon: 4.354 };

/** Rue des Éperonniers / Spoormakersstraat, inside the fixture's street-level grid: its number 1, and 7 (with boxes). */
export const EPERONNIERS = { fr: 'Rue des Éperonniers', nl: 'Spoormakersstraat' };
export const EPERONNIERS_1 = { lat: 50.8461, lon: 4.3531 };
export const EPERONNIERS_7 = { lat: 50.84625, lon: 4.35333 };

/** Records of the Brussels file. */
function brussels(): Row[] {
  const loi = { fr: 'Rue de la Loi', nl: 'Wetstraat' };
  return [
    ...along(BRUSSELS, '1001', loi, evens(2, 14), 50.8459, 4.3659),
    // 16, with three boxes (one house number).
    ...[1, 2, 3].map((b) => record(BRUSSELS, '1001', loi, '16', LOI_16.lat, LOI_16.lon, { box_number: String(b) })),
    ...along(BRUSSELS, '1001', loi, evens(18, 40), 50.8459, 4.3659),
    // 17 exists only as a retired address.
    record(BRUSSELS, '1001', loi, '17', 50.8462, 4.3668, { status: 'retired' }),
    // Rue Haute: 2 to 98 and 102 to 140, then a long gap to 190 (500 m further).
    ...along(BRUSSELS, '1002', { fr: 'Rue Haute', nl: 'Hoogstraat' }, [...evens(2, 98), ...evens(102, 140)], 50.8380, 4.3440),
    ...along(BRUSSELS, '1002', { fr: 'Rue Haute', nl: 'Hoogstraat' }, [190, 192], 50.8340, 4.3390),
    record(BRUSSELS, '1003', { fr: 'Rue du Marché aux Herbes', nl: 'Grasmarkt' }, '10', HERBES_10.lat, HERBES_10.lon),
    record(BRUSSELS, '1003', { fr: 'Rue du Marché aux Herbes', nl: 'Grasmarkt' }, '12', HERBES_10.lat + 2e-5, HERBES_10.lon + 6e-5),
    ...along(IXELLES, '1004', { fr: 'Avenue Louise', nl: 'Louizalaan' }, [50, 52, 54, '54A', 56], 50.8300, 4.3600),
    ...along(IXELLES, '1005', { fr: 'Chaussée de Wavre', nl: 'Waversesteenweg' }, evens(96, 104), 50.8350, 4.3700),
    // Numbers in street names, and house numbers with four digits.
    ...along(IXELLES, '1006', { fr: 'Rue du 11 Novembre', nl: '11 Novemberstraat' }, [1, 3, 5, 7, 9, 11], 50.8260, 4.3750),
    ...along(IXELLES, '1007', { fr: 'Rue du 1er Mai', nl: '1 Meistraat' }, [1, 3, 5, 7], 50.8240, 4.3780),
    ...along(UCCLE, '1008', { fr: 'Chaussée d\'Alsemberg', nl: 'Alsembergsesteenweg' }, evens(1196, 1204), 50.7900, 4.3400),
    // Inside the street-level zone. Rue des Éperonniers holds 1 to 7 (7 with two boxes); 9 is retired, 11 proposed.
    ...along(BRUSSELS, '1010', EPERONNIERS, [1, 3, 5], EPERONNIERS_1.lat, EPERONNIERS_1.lon),
    ...['1', '2'].map((b) => record(BRUSSELS, '1010', EPERONNIERS, '7', EPERONNIERS_7.lat, EPERONNIERS_7.lon, { box_number: b })),
    ...along(BRUSSELS, '1010', EPERONNIERS, [9], EPERONNIERS_1.lat, EPERONNIERS_1.lon).map((r) => ({ ...r, status: 'retired' })),
    ...along(BRUSSELS, '1010', EPERONNIERS, [11], EPERONNIERS_1.lat, EPERONNIERS_1.lon).map((r) => ({ ...r, status: 'proposed' })),
    // One registered number.
    record(BRUSSELS, '1011', { fr: 'Rue de la Violette', nl: 'Violetstraat' }, '20', 50.8459, 4.3522),
    // 2 to 20, then a gap of some 150 m to 60 to 70.
    ...along(BRUSSELS, '1012', { fr: 'Rue du Lombard', nl: 'Lombardstraat' }, [...evens(2, 20), ...evens(60, 70)], 50.8448, 4.3480),
  ];
}

function flanders(): Row[] {
  return [
    ...along(GENT, '2001', { nl: 'Kerkstraat' }, [1, 3, 5, 7], 51.0500, 3.7200),
    ...along(LEUVEN, '2002', { nl: 'Kerkstraat' }, [1, 3, 5, 7], 50.8800, 4.7000),
    // A name with a comma and a quote, quoted in the file.
    ...along(GENT, '2003', { nl: 'Sint-Pietersplein, "Oost"' }, [1], 51.0420, 3.7250),
  ];
}

function wallonia(): Row[] {
  return [
    ...along(NAMUR, '3001', { fr: 'Rue de la Station' }, [1, 2, 3], 50.4670, 4.8600),
    ...along(WAVRE, '3002', { fr: 'Rue de la Station' }, [1, 2, 3], 50.7160, 4.6100),
    ...along(EUPEN, '3003', { fr: 'Rue Neuve', de: 'Neustraße' }, [1, 3, 5], 50.6300, 6.0300),
    ...along(BOUILLON, '3004', { fr: 'Rue du Moulin' }, [1, 3], 49.7940, 5.0680),
    ...along(VRESSE, '3005', { fr: 'Rue du Moulin' }, [1, 3], 49.8700, 4.9300),
  ];
}

/** Records per regional file. */
export const TEST_REGISTER: Readonly<Record<'bebru' | 'bevlg' | 'bewal', readonly Row[]>> = {
  bebru: brussels(),
  bevlg: flanders(),
  bewal: wallonia(),
};

/** The text of a register file of `rows`. */
export function registerText(rows: readonly Row[]): string {
  return REGISTER_HEADER + rows.map(registerLine).join('');
}

/** Writes the three files into `dir`; returns their paths. */
export async function writeTestRegister(dir: string): Promise<string[]> {
  const paths: string[] = [];
  for (const [suffix, rows] of Object.entries(TEST_REGISTER)) {
    const path = join(dir, `openaddress-${suffix}.csv`);
    await writeFile(path, registerText(rows));
    paths.push(path);
  }
  return paths;
}
