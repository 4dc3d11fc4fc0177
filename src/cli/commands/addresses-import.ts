import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { importRegister } from '../../addresses/register-import.js';
import { createProgress, type Progress } from '../../util/progress.js';
import type { Command } from '../command.js';
import { UsageError } from '../usage-error.js';

const USAGE = `Usage: svc addresses import --data DIR FILE...

Imports the official address register of Belgium (BeSt Address, the federal consolidation of UrbIS, the Flemish
Adressenregister and ICAR) from its CSV files, plain, gzipped (.gz) or zipped (.zip): openaddress-bebru.csv,
openaddress-bevlg.csv, openaddress-bewal.csv. Keeps the current addresses, folds boxes into their house number and
writes the address index DIR/addresses.sqlite, which svc serve and svc demo then geocode with, offline, exact to
the house number. The new index replaces the previous one only once complete: an interrupted or failed import
leaves the previous one serving. A malformed file stops the import with the file, line and reason (exit 2).`;

/** `svc addresses import`. */
export const addressesImportCommand: Command = {
  path: ['addresses', 'import'],
  summary: 'Import the official address register (BeSt Address CSV files) into the address index',
  usage: USAGE,
  async run(args) {
    const { values, positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: { data: { type: 'string' } } });
    if (!values.data) throw new UsageError('--data DIR is required.');
    if (positionals.length === 0) throw new UsageError('Name at least one register file (openaddress-be*.csv, .csv.gz or .zip).');
    const started = performance.now();
    let bar: Progress | undefined;
    let totalMb = 0;
    let ticked = 0;
    let carried = 0;
    const summary = await importRegister(resolve(values.data), positionals.map((f) => resolve(f)), {
      start: (total) => (bar = createProgress('import addresses (MB)', (totalMb = Math.max(1, Math.round(total / 1e6))))),
      bytes: (n) => {
        // The bar counts whole megabytes read from disk.
        carried += n;
        if (carried >= 1e6) {
          const mb = Math.min(Math.floor(carried / 1e6), totalMb - ticked);
          bar?.tick(mb);
          ticked += mb;
          carried %= 1e6;
        }
      },
    });
    // Reading is done; the rest (folding boxes, indexes) is not counted in bytes.
    bar?.tick(totalMb - ticked);
    bar?.done();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `Imported ${summary.addresses.toLocaleString('en')} addresses on ${summary.streets.toLocaleString('en')} streets ` +
        `(${summary.current.toLocaleString('en')} current records of ${summary.rows.toLocaleString('en')}) in ${seconds} s -> ${summary.path}`,
    );
    return 0;
  },
};
