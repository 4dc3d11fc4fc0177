/**
 * `svc addresses import` on register files in the real format: plain, gzipped and zipped files; only current
 * addresses kept, boxes folded into their house number; bad files (wrong header, broken quoting, a row of another
 * width, a truncated gzip, bytes that are not UTF-8, a broken zip) stop it with the file, line and reason, exit 2,
 * and leave the previous index serving; `svc serve` and `svc demo` geocode with the index once it is there.
 */
import { execFileSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { openSqliteFile } from '../../src/db/database.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegisterFileError } from '../../src/addresses/register-csv.js';
import { importRegister } from '../../src/addresses/register-import.js';
import { addressIndexPath, indexSummary } from '../../src/addresses/register-index.js';
import { main } from '../../src/cli/main.js';
import { loadConfig } from '../../src/config.js';
import { geocoderFor } from '../../src/nodes/geocoders.js';
import { tempDir } from '../store/helpers.js';
import { registerText, TEST_REGISTER, writeTestRegister } from './support/register-files.js';

let root: { dir: string; cleanup: () => Promise<void> };
let files: string[];

beforeAll(async () => {
  root = await tempDir('register-import');
  files = await writeTestRegister(root.dir);
});
afterAll(() => root?.cleanup());

/** The summary of the index in `dir`. */
function summaryOf(dir: string) {
  const db = openSqliteFile(addressIndexPath(dir), { readOnly: true });
  try {
    return indexSummary(db);
  } finally {
    db.close();
  }
}

const allRows = Object.values(TEST_REGISTER).flat();
const currentKeys = new Set(allRows.filter((r) => r.status === 'current').map((r) => `${r.street_id}|${r.postcode}|${r.house_number}`));

describe('svc addresses import', () => {
  it('keeps the current addresses, one per house number (boxes folded in)', async () => {
    const dir = join(root.dir, 'plain');
    const summary = await importRegister(dir, files);
    expect(summary).toMatchObject({ rows: allRows.length, addresses: currentKeys.size });
    expect(summary.current).toBe(allRows.filter((r) => r.status === 'current').length);
    expect(summaryOf(dir)).toMatchObject({ addresses: currentKeys.size, rows: allRows.length, files: files.map((f) => f.split('/').pop()) });
    const db = openSqliteFile(addressIndexPath(dir), { readOnly: true });
    try {
      const loi16 = db.prepare(`SELECT count(*) AS n FROM addresses a JOIN streets s ON s.id = a.street
        WHERE s.street_id = '1001' AND a.number = '16'`).get() as { n: number };
      expect(loi16.n).toBe(1);
      const retired = db.prepare(`SELECT count(*) AS n FROM addresses a JOIN streets s ON s.id = a.street
        WHERE s.street_id = '1001' AND a.number = '17'`).get() as { n: number };
      expect(retired.n).toBe(0);
    } finally {
      db.close();
    }
  });

  it('reads gzipped and zipped files alike (not the resource forks macOS adds to zips), and the quoted names in them', async () => {
    const gz = join(root.dir, 'openaddress-bevlg.csv.gz');
    await writeFile(gz, gzipSync(await readFile(files[1]!)));
    const zip = join(root.dir, 'register.zip');
    execFileSync('python3', ['-c', 'import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:\n  z.write(sys.argv[2], "openaddress-bebru.csv")\n  z.write(sys.argv[3], "openaddress-bewal.csv")\n  z.writestr("__MACOSX/._openaddress-bebru.csv", b"\\x00\\x05\\x16\\x07 resource fork")', zip, files[0]!, files[2]!]);
    const dir = join(root.dir, 'packed');
    const summary = await importRegister(dir, [zip, gz]);
    expect(summary.addresses).toBe(currentKeys.size);
    const db = openSqliteFile(addressIndexPath(dir), { readOnly: true });
    try {
      const names = db.prepare("SELECT names FROM streets WHERE street_id = '2003'").get() as { names: string };
      expect(JSON.parse(names.names)).toEqual(['Sint-Pietersplein, "Oost"']);
    } finally {
      db.close();
    }
  });

  it('runs as a command, printing what it imported, and svc serve then geocodes with the index', async () => {
    const dir = join(root.dir, 'cli');
    expect(await main(['addresses', 'import', '--data', dir, ...files])).toBe(0);
    const selected = geocoderFor(loadConfig({}, { dataDir: dir }));
    try {
      expect(selected.source).toMatch(new RegExp(`^address register \\(${currentKeys.size} addresses, imported \\d{4}-`));
      expect((await selected.geocoder.search('Wetstraat 16 Brussel', 1))[0]?.address).toBe('Wetstraat 16, 1000 Brussel');
    } finally {
      selected.close();
    }
    const none = geocoderFor(loadConfig({}, { dataDir: join(root.dir, 'nothing-here') }));
    expect(none.source).toMatch(/^embedded gazetteer \(no address index/);
  });
});

describe('bad register files', () => {
  const good = () => registerText(TEST_REGISTER.bebru);
  const lines = () => good().split('\n');
  const cases: [string, () => Buffer | string, RegExp][] = [
    ['a wrong header', () => good().replace('house_number', 'housenumber'), /line 1: not a BeSt Address CSV header \(column 7 is "housenumber", not "house_number"\)/],
    ['a header of another width', () => good().replace(',status\n', '\n'), /line 1: not a BeSt Address CSV header \(19 columns instead of 20\)/],
    ['broken quoting', () => [...lines().slice(0, 4), lines()[4]!.replace('Rue de la Loi', 'Rue "de la Loi'), ...lines().slice(5)].join('\n'), /line 5: a quote inside an unquoted field/],
    ['an unclosed quote', () => `${lines().slice(0, 6).join('\n')}\n"Rue de la Loi,1,2\n`, /line 7: a quoted field is not closed before the end of the file/],
    ['a row of another width', () => [...lines().slice(0, 9), `${lines()[9]},extra`, ...lines().slice(10)].join('\n'), /line 10: 21 fields instead of 20/],
    ['bytes that are not UTF-8', () => Buffer.concat([Buffer.from(lines().slice(0, 3).join('\n')), Buffer.from([0x0a, 0xff, 0xfe, 0x2c]), Buffer.from(lines().slice(3).join('\n'))]), /line 4: bytes that are not UTF-8/],
    ['a coordinate that is none', () => good().replace(/\n([^,\n]*),([^,\n]*),50\.[0-9]+,/, '\n$1,$2,north,'), /line 2: EPSG:4326_lat "north" is not a coordinate in Belgium/],
    ['an empty file', () => '', /line 1: the file is empty/],
  ];
  for (const [name, content, reason] of cases) {
    it(`stops on ${name} with the file, line and reason, and leaves the previous index serving`, async () => {
      const dir = join(root.dir, `bad-${name.replace(/\W+/g, '-')}`);
      await importRegister(dir, files);
      const before = summaryOf(dir);
      const bad = join(dir, 'openaddress-bad.csv');
      await writeFile(bad, content());
      const err = await importRegister(dir, [files[1]!, bad]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RegisterFileError);
      expect((err as Error).message).toMatch(new RegExp(`^openaddress-bad\\.csv, ${reason.source}`));
      expect(summaryOf(dir)).toEqual(before);
      expect((await readdir(dir)).filter((f) => f.includes('.tmp'))).toEqual([]);
      // The temporary file of an import that was killed (its process is gone) is removed by the next import.
      await writeFile(join(dir, '.addresses.sqlite.tmp-999999999'), 'left by an interrupted import');
      await importRegister(dir, [files[1]!]);
      expect((await readdir(dir)).filter((f) => f.includes('.tmp'))).toEqual([]);
      expect(await main(['addresses', 'import', '--data', dir, bad])).toBe(2);
    });
  }

  it('stops on a truncated gzip, naming it', async () => {
    const bytes = gzipSync(Buffer.from(good()));
    const gz = join(root.dir, 'openaddress-cut.csv.gz');
    await writeFile(gz, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await expect(importRegister(join(root.dir, 'cut'), [gz])).rejects.toThrow(/^openaddress-cut\.csv\.gz, line \d+: the compressed data end early/);
  });

  it('stops on a file that is not a zip archive, and on a missing file', async () => {
    const zip = join(root.dir, 'broken.zip');
    await writeFile(zip, 'PK not really');
    await expect(importRegister(join(root.dir, 'zip'), [zip])).rejects.toThrow(/^broken\.zip: not a readable zip archive/);
    await expect(importRegister(join(root.dir, 'zip'), [join(root.dir, 'nope.csv')])).rejects.toThrow(/nope\.csv: no such file/);
  });
});
