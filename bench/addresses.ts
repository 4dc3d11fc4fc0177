/**
 * `npm run bench -- addresses`: the address register at the size of the country. A register of 6.6 million records in
 * the real format (src/addresses/synthetic-register.ts: three regional files, Brussels bilingual, German-speaking
 * municipalities, boxes, retired and proposed records, street names whose frequency falls off steeply) is generated,
 * imported as `svc addresses import` imports it (timed), and searched: forward over a mix of exact, misspelled,
 * abbreviated and partial queries made from addresses of the index, and reverse around registered points and away
 * from them, each query timed alone. BENCH_ADDRESS_ROWS sets another size; BENCH_ADDRESS_DATA names a data directory
 * whose index is searched as it is (one imported from the real register, say), without generating or importing.
 * Targets on 2 cores: import ≤ 5 minutes, forward p50 ≤ 2 ms and p99 ≤ 15 ms, reverse p50 ≤ 1 ms.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { openSqliteFile } from '../src/db/database.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAddressRegister } from '../src/addresses/register-geocoder.js';
import { importRegister, type ImportSummary } from '../src/addresses/register-import.js';
import { addressIndexPath, indexSummary } from '../src/addresses/register-index.js';
import { generateRegister } from '../src/addresses/synthetic-register.js';
import { createRandom } from '../src/util/random.js';
import { GAZETTEER } from '../src/geocode/gazetteer-data.js';
import { createGazetteer } from '../src/geocode/gazetteer.js';
import type { BenchResult } from './registry.js';
import { percentile } from './timing.js';

const ROWS = Number(process.env.BENCH_ADDRESS_ROWS ?? 6_600_000);
const QUERIES_PER_KIND = 500;
const TARGETS = { importS: 300, forwardP50Ms: 2, forwardP99Ms: 15, reverseP50Ms: 1 };

type Kind = 'exact' | 'misspelled' | 'abbreviated' | 'partial';

const ABBREVIATE: readonly [RegExp, string][] = [
  [/^Avenue /, 'Av. '], [/^Boulevard /, 'Bd '], [/^Chaussée /, 'Chée '], [/straat$/, 'str.'], [/steenweg$/, 'stwg'], [/straße$/, 'str.'],
];

/** The query of `kind` for one registered address. */
function queryOf(kind: Kind, street: string, number: string, postcode: string, town: string, rand: () => number): string {
  switch (kind) {
    case 'exact':
      return `${street} ${number}, ${postcode} ${town}`;
    case 'misspelled': {
      // One letter dropped from the street's longest word.
      const words = street.split(' ');
      const i = words.reduce((best, w, k) => (w.length > words[best]!.length ? k : best), 0);
      const w = words[i]!;
      const at = 1 + Math.floor(rand() * (w.length - 2));
      words[i] = w.slice(0, at) + w.slice(at + 1);
      return `${words.join(' ')} ${number} ${town}`;
    }
    case 'abbreviated': {
      const rule = ABBREVIATE.find(([re]) => re.test(street));
      return `${rule ? street.replace(rule[0], rule[1]) : street} ${number} ${postcode}`;
    }
    case 'partial':
      // No postcode, no municipality, the street's last word cut short as it is being typed.
      return rand() < 0.5 ? `${street} ${number}` : `${street.slice(0, Math.max(4, street.length - 3))}`;
  }
}

/** Runs the benchmark. */
export async function run(): Promise<BenchResult> {
  const given = process.env.BENCH_ADDRESS_DATA;
  const dir = given ?? await mkdtemp(join(tmpdir(), 'bench-addresses-'));
  try {
    let t0 = performance.now();
    const generated = given === undefined ? await generateRegister(dir, ROWS, 7) : { files: [], rows: 0 };
    const generateS = (performance.now() - t0) / 1000;
    const csvBytes = (await Promise.all(generated.files.map((f) => stat(f)))).reduce((n, s) => n + s.size, 0);
    t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const imported = given === undefined ? await importRegister(dir, generated.files) : existingIndex(dir);
    const importS = given === undefined ? (performance.now() - t0) / 1000 : Number.NaN;
    const cpu = process.cpuUsage(cpu0);
    const indexMb = (await stat(addressIndexPath(dir))).size / 1e6;

    // Queries from addresses of the index, drawn at random.
    const random = createRandom(11);
    const rand = () => random.next();
    const db = openSqliteFile(addressIndexPath(dir), { readOnly: true });
    const maxRow = Number((db.prepare('SELECT max(rowid) AS n FROM addresses').get() as { n: number }).n);
    const pick = db.prepare(`SELECT a.number, a.lat, a.lon, s.names, s.towns, s.postcode FROM addresses a
      JOIN streets s ON s.id = a.street WHERE a.rowid = ?`);
    const kinds: Kind[] = ['exact', 'misspelled', 'abbreviated', 'partial'];
    const queries: { kind: Kind; q: string }[] = [];
    const points: { lat: number; lon: number }[] = [];
    for (const kind of kinds) {
      for (let i = 0; i < QUERIES_PER_KIND; i++) {
        const row = pick.get(1 + Math.floor(rand() * maxRow)) as { number: string; lat: number; lon: number; names: string; towns: string; postcode: string } | undefined;
        if (row === undefined) continue;
        const names = JSON.parse(row.names) as string[];
        const towns = JSON.parse(row.towns) as string[];
        const lang = Math.floor(rand() * names.length);
        queries.push({ kind, q: queryOf(kind, names[lang]!, row.number, row.postcode, towns[lang]!, rand) });
        // Reverse: within 20 m of the address, or 300 m away (mostly no address within 30 m there).
        const far = rand() < 0.2 ? 0.003 : 0.00015;
        points.push({ lat: row.lat + (rand() - 0.5) * far, lon: row.lon + (rand() - 0.5) * far });
      }
    }
    db.close();

    const register = openAddressRegister(dir, createGazetteer(GAZETTEER))!;
    const forward: Record<Kind, number[]> = { exact: [], misspelled: [], abbreviated: [], partial: [] };
    const found: Record<Kind, number> = { exact: 0, misspelled: 0, abbreviated: 0, partial: 0 };
    // One untimed pass warms the page cache and the JIT, as a serving process is warm.
    for (const { q } of queries.slice(0, 200)) await register.geocoder.search(q, 5);
    for (const { kind, q } of queries) {
      const t = performance.now();
      const hits = await register.geocoder.search(q, 5);
      forward[kind].push(performance.now() - t);
      if (hits.length > 0 && hits[0]!.kind !== 'municipality') found[kind]++;
    }
    const reverse: number[] = [];
    let reverseFound = 0;
    for (const p of points) {
      const t = performance.now();
      if ((await register.geocoder.reverse(p.lat, p.lon)) !== undefined) reverseFound++;
      reverse.push(performance.now() - t);
    }
    register.close();

    const all = Object.values(forward).flat();
    const r2 = (v: number) => Math.round(v * 100) / 100;
    const fP50 = r2(percentile(all, 0.5));
    const fP99 = r2(percentile(all, 0.99));
    const rP50 = r2(percentile(reverse, 0.5));
    const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
    return {
      name: 'addresses',
      title: `Address register: ${imported.rows.toLocaleString('en')} records, ${given === undefined ? 'import and search' : `search of the index in ${given}`} (one process)`,
      columns: ['step', 'count', 'found', 'p50 ms', 'p99 ms', 'seconds', 'MB'],
      rows: [
        { step: 'generate the CSV files', count: generated.rows, found: '', 'p50 ms': '', 'p99 ms': '', seconds: r2(generateS), MB: r2(csvBytes / 1e6) },
        { step: 'svc addresses import', count: imported.addresses, found: '', 'p50 ms': '', 'p99 ms': '', seconds: r2(importS), MB: r2(indexMb) },
        ...kinds.map((k) => ({
          step: `forward, ${k}`, count: forward[k].length, found: found[k], 'p50 ms': r2(percentile(forward[k], 0.5)), 'p99 ms': r2(percentile(forward[k], 0.99)), seconds: '', MB: '',
        })),
        { step: 'forward, all', count: all.length, found: Object.values(found).reduce((a, b) => a + b, 0), 'p50 ms': fP50, 'p99 ms': fP99, seconds: '', MB: '' },
        { step: 'reverse', count: reverse.length, found: reverseFound, 'p50 ms': rP50, 'p99 ms': r2(percentile(reverse, 0.99)), seconds: '', MB: '' },
      ],
      notes: [
        `Import: ${imported.current.toLocaleString('en')} current records of ${imported.rows.toLocaleString('en')} into ${imported.addresses.toLocaleString('en')} addresses on ${imported.streets.toLocaleString('en')} streets; ` +
          `CPU ${r2((cpu.user + cpu.system) / 1e6)} s; index ${r2(indexMb)} MB.`,
        `Targets: import ≤ ${TARGETS.importS} s (${met(importS <= TARGETS.importS)}), forward p50 ≤ ${TARGETS.forwardP50Ms} ms (${met(fP50 <= TARGETS.forwardP50Ms)}), ` +
          `p99 ≤ ${TARGETS.forwardP99Ms} ms (${met(fP99 <= TARGETS.forwardP99Ms)}), reverse p50 ≤ ${TARGETS.reverseP50Ms} ms (${met(rP50 <= TARGETS.reverseP50Ms)}).`,
        '"found": queries answered with a street or an address first (not a municipality), reverse points with an address within 30 m.',
      ],
      figures: {
        rows: imported.rows,
        import_s: r2(importS),
        index_mb: r2(indexMb),
        forward_p50_ms: fP50,
        forward_p99_ms: fP99,
        reverse_p50_ms: rP50,
        reverse_p99_ms: r2(percentile(reverse, 0.99)),
        addresses: imported.addresses,
        streets: imported.streets,
        targets_met: importS <= TARGETS.importS && fP50 <= TARGETS.forwardP50Ms && fP99 <= TARGETS.forwardP99Ms && rP50 <= TARGETS.reverseP50Ms,
      },
    };
  } finally {
    if (given === undefined) await rm(dir, { recursive: true, force: true });
  }
}

/** The counts of an index imported earlier, as an import reports them. */
function existingIndex(dir: string): ImportSummary {
  const db = openSqliteFile(addressIndexPath(dir), { readOnly: true });
  try {
    const s = indexSummary(db);
    return { rows: s.rows, current: Number.NaN, addresses: s.addresses, streets: s.streets, path: addressIndexPath(dir) };
  } finally {
    db.close();
  }
}
