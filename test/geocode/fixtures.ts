/** A small hand-made gazetteer for tests (coordinates are the real places, rounded to 5 decimals). */
import type { GazetteerEntry } from '../../src/geocode/gazetteer-types.js';

/** Brussels (French forms only, so Dutch queries must go through aliases), Gent, Antwerpen, Liège, Mons, abroad. */
export const TEST_GAZETTEER: readonly GazetteerEntry[] = [
  { address: 'Grand-Place 1, 1000 Bruxelles', lat: 50.84672, lon: 4.35247, kind: 'address' },
  { address: 'Rue du Marché aux Herbes 12, 1000 Bruxelles', lat: 50.84741, lon: 4.35443, kind: 'address' },
  { address: 'Rue du Marché aux Herbes 10, 1000 Bruxelles', lat: 50.84736, lon: 4.35425, kind: 'address' },
  { address: 'Rue Neuve 1, 1000 Bruxelles', lat: 50.85036, lon: 4.35501, kind: 'address' },
  { address: 'Avenue Louise 54, 1050 Ixelles', lat: 50.83467, lon: 4.36167, kind: 'address' },
  { address: 'Korenmarkt 5, 9000 Gent', lat: 51.05456, lon: 3.72155, kind: 'address' },
  { address: 'Korenlei 2, 9000 Gent', lat: 51.05502, lon: 3.71887, kind: 'address' },
  { address: 'Grote Markt 1, 2000 Antwerpen', lat: 51.22125, lon: 4.39963, kind: 'address' },
  { address: 'Place Saint-Lambert 1, 4000 Liège', lat: 50.64551, lon: 5.57331, kind: 'address' },
  { address: 'Grand-Place 1, 7000 Mons', lat: 50.45425, lon: 3.95199, kind: 'address' },
  { address: '1000 Bruxelles', lat: 50.85034, lon: 4.35171, kind: 'municipality' },
  { address: '9000 Gent', lat: 51.05434, lon: 3.71742, kind: 'municipality' },
  { address: '2000 Antwerpen', lat: 51.21989, lon: 4.40346, kind: 'municipality' },
  { address: '4000 Liège', lat: 50.63321, lon: 5.56749, kind: 'municipality' },
  { address: '7000 Mons', lat: 50.45421, lon: 3.95229, kind: 'municipality' },
  { address: 'Lille, France', lat: 50.62925, lon: 3.05726, kind: 'place' },
  { address: 'Bergen, Norway', lat: 60.39126, lon: 5.32205, kind: 'place' },
];

/** Address of the entry at `i`, for readable expectations. */
export function addressAt(i: number): string {
  return TEST_GAZETTEER[i].address;
}
