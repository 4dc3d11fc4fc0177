/**
 * Register files in the exact format of BeSt Address (register-csv.ts), generated: for tests, and for the benchmark of
 * a whole country (`npm run bench -- addresses`: 6.6 million records). The real files cannot be downloaded on every
 * machine; these have their shape: three regional files, Brussels bilingual (fr and nl), Flanders in Dutch, Wallonia
 * in French with German-speaking municipalities (de and fr), several records per house number where it has boxes,
 * records that are not `current`, and street names whose frequency falls off steeply (Kerkstraat and Rue de la Gare
 * are everywhere, most names are rare). Deterministic for a seed.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { createRandom } from '../util/random.js';
import { REGISTER_COLUMNS, type RegisterRecord } from './register-csv.js';

/** One CSV field, quoted when it must be (RFC 4180). */
function field(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** One record as a CSV line (with its line end). */
export function registerLine(r: Partial<RegisterRecord>): string {
  return `${REGISTER_COLUMNS.map((c) => field(r[c] ?? '')).join(',')}\n`;
}

/** The header line. */
export const REGISTER_HEADER = `${REGISTER_COLUMNS.join(',')}\n`;

const NL_STEMS = ['Kerk', 'Station', 'Molen', 'School', 'Dorp', 'Beek', 'Linden', 'Kapel', 'Berg', 'Veld', 'Bos', 'Heide', 'Hof', 'Kasteel', 'Meer', 'Water', 'Nieuw', 'Oude', 'Zand', 'Brug', 'Eiken', 'Populieren', 'Wilgen', 'Rozen', 'Tulpen', 'Akker', 'Weide', 'Dijk', 'Vaart', 'Hoog'];
const NL_TYPES = ['straat', 'laan', 'weg', 'plein', 'dreef', 'steenweg', 'hof', 'pad'];
const FR_TYPES = ['Rue', 'Avenue', 'Chemin', 'Place', 'Chaussée', 'Boulevard', 'Allée', 'Sentier'];
const FR_NAMES = ['de la Gare', 'de l\'Église', 'du Moulin', 'de la Station', 'des Écoles', 'du Château', 'Haute', 'Basse', 'de la Chapelle', 'du Bois', 'des Champs', 'de la Fontaine', 'du Centre', 'des Prés', 'de Namur', 'de Liège', 'Saint-Martin', 'Sainte-Anne', 'du Pont', 'des Tilleuls', 'de la Croix', 'du Marché', 'des Roses', 'de Bruxelles', 'de la Libération', 'du Calvaire', 'Royale', 'Neuve', 'des Alliés', 'Albert Ier'];
const DE_STEMS = ['Kirch', 'Bahnhof', 'Mühlen', 'Schul', 'Dorf', 'Berg', 'Wald', 'Haupt', 'Neu', 'Linden'];
const SYLLABLES = ['ver', 'hel', 'mon', 'dra', 'bek', 'lin', 'tor', 'sa', 'rik', 'gen', 'ho', 'bru', 'del', 'mar', 'zel', 'wa', 'ker', 'lo', 'van', 'fon'];

/** A rare proper name made of syllables (most street names are rare: the long tail). */
function properName(rand: () => number): string {
  const n = 2 + Math.floor(rand() * 2);
  let s = '';
  for (let i = 0; i < n; i++) s += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
  return s[0]!.toUpperCase() + s.slice(1);
}

/** Index drawn with a steep fall-off (Zipf-like): low indexes are far more frequent. */
function skewed(rand: () => number, n: number): number {
  return Math.min(n - 1, Math.floor(n * rand() ** 3));
}

type Region = 'BE-BRU' | 'BE-VLG' | 'BE-WAL';

interface Municipality {
  readonly id: string;
  readonly region: Region;
  readonly names: { fr: string; nl: string; de: string };
  readonly postcodes: readonly string[];
  readonly lat: number;
  readonly lon: number;
}

/** The municipalities of a generated country: 19 in Brussels, the rest in Flanders and Wallonia (9 German-speaking). */
function municipalities(rand: () => number, count: number): Municipality[] {
  const out: Municipality[] = [];
  for (let i = 0; i < count; i++) {
    const region: Region = i < 19 ? 'BE-BRU' : i < 19 + Math.round((count - 19) * 0.52) ? 'BE-VLG' : 'BE-WAL';
    const german = region === 'BE-WAL' && i >= count - 9;
    const base = properName(rand);
    const names = region === 'BE-BRU' ? { fr: `${base}-Ville`, nl: `${base}-Stad`, de: '' }
      : region === 'BE-VLG' ? { fr: '', nl: base, de: '' }
        : german ? { fr: base, nl: '', de: base } : { fr: base, nl: '', de: '' };
    const pc = (region === 'BE-BRU' ? 1000 : region === 'BE-VLG' ? 2000 : 4000) + i * 10;
    const postcodes = [String(pc), ...(rand() < 0.3 ? [String(pc + 1)] : [])];
    const [lat, lon] = region === 'BE-BRU' ? [50.8 + rand() * 0.1, 4.3 + rand() * 0.15]
      : region === 'BE-VLG' ? [50.75 + rand() * 0.6, 2.6 + rand() * 3.1] : [49.55 + rand() * 1.1, 3.2 + rand() * 2.9];
    out.push({ id: String(21000 + i), region, names, postcodes, lat, lon });
  }
  return out;
}

/** A street name in the municipality's languages. */
function streetNames(rand: () => number, m: Municipality): { fr: string; nl: string; de: string } {
  const common = rand() < 0.55;
  const nl = common ? `${NL_STEMS[skewed(rand, NL_STEMS.length)]}${NL_TYPES[skewed(rand, NL_TYPES.length)]}` : `${properName(rand)}${NL_TYPES[skewed(rand, NL_TYPES.length)]}`;
  const fr = `${FR_TYPES[skewed(rand, FR_TYPES.length)]} ${common ? FR_NAMES[skewed(rand, FR_NAMES.length)] : properName(rand)}`;
  const de = `${common ? DE_STEMS[skewed(rand, DE_STEMS.length)] : properName(rand)}straße`;
  if (m.region === 'BE-BRU') return { fr, nl, de: '' };
  if (m.region === 'BE-VLG') return { fr: '', nl, de: '' };
  return m.names.de !== '' ? { fr, nl: '', de } : { fr, nl: '', de: '' };
}

/** Files written by `generateRegister`. */
export interface GeneratedRegister {
  readonly files: readonly string[];
  readonly rows: number;
}

/**
 * Writes `openaddress-bebru.csv`, `-bevlg.csv` and `-bewal.csv` into `dir` with about `rows` records in all
 * (Brussels 10 %, Flanders 55 %, Wallonia 35 %).
 */
export async function generateRegister(dir: string, rows: number, seed = 1): Promise<GeneratedRegister> {
  const random = createRandom(seed);
  const rand = () => random.next();
  const munis = municipalities(rand, Math.max(40, Math.min(581, Math.round(rows / 2000))));
  const shares: Record<Region, number> = { 'BE-BRU': 0.1, 'BE-VLG': 0.55, 'BE-WAL': 0.35 };
  const files: string[] = [];
  let written = 0;
  let addressId = 1;
  let streetId = 1;
  for (const [region, suffix] of [['BE-BRU', 'bebru'], ['BE-VLG', 'bevlg'], ['BE-WAL', 'bewal']] as const) {
    const path = join(dir, `openaddress-${suffix}.csv`);
    files.push(path);
    const out = createWriteStream(path);
    let buffer = REGISTER_HEADER;
    const flush = async (force = false) => {
      if (buffer.length < 1 << 20 && !force) return;
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    };
    const inRegion = munis.filter((m) => m.region === region);
    const target = Math.round(rows * shares[region]);
    let n = 0;
    while (n < target) {
      const m = inRegion[Math.floor(rand() * inRegion.length)]!;
      const names = streetNames(rand, m);
      const postcode = m.postcodes[Math.floor(rand() * m.postcodes.length)]!;
      const sid = String(streetId++);
      const houses = 4 + Math.floor(rand() * 50);
      // A street: a straight line of houses, odd numbers on one side, even on the other, about 6 m apart.
      const lat0 = m.lat + (rand() - 0.5) * 0.05;
      const lon0 = m.lon + (rand() - 0.5) * 0.08;
      const angle = rand() * Math.PI;
      for (let h = 1; h <= houses && n < target; h++) {
        const along = h * 3e-5;
        const side = h % 2 === 0 ? 1.5e-4 : -1.5e-4;
        const lat = lat0 + Math.sin(angle) * along + Math.cos(angle) * side * 0.1;
        const lon = lon0 + Math.cos(angle) * along * 1.6 - Math.sin(angle) * side * 0.1;
        const boxes = rand() < 0.08 ? 2 + Math.floor(rand() * 6) : 1;
        for (let b = 0; b < boxes && n < target; b++) {
          const status = rand() < 0.05 ? (rand() < 0.5 ? 'retired' : 'proposed') : 'current';
          buffer += registerLine({
            'EPSG:31370_x': '', 'EPSG:31370_y': '', 'EPSG:4326_lat': lat.toFixed(7), 'EPSG:4326_lon': lon.toFixed(7),
            address_id: String(addressId++), box_number: boxes > 1 ? String(b + 1) : '', house_number: String(h),
            municipality_id: m.id, municipality_name_de: m.names.de, municipality_name_fr: m.names.fr, municipality_name_nl: m.names.nl,
            postcode, postname_fr: m.names.fr, postname_nl: m.names.nl, street_id: sid,
            streetname_de: names.de, streetname_fr: names.fr, streetname_nl: names.nl, region_code: region, status,
          });
          n++;
        }
      }
      await flush();
    }
    await flush(true);
    out.end();
    await once(out, 'finish');
    written += n;
  }
  return { files, rows: written };
}
