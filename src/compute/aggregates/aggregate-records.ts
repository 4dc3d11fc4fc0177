/**
 * Stored aggregates seen from the statistics kernel: what their records depend on (`recordsDigest`), which chunks a
 * block's aggregate sums (`aggregateSources`), and merging a stored aggregate into a computation after checking that
 * it sums exactly the chunks the dataset holds now (`mergeAggregate`). The file format is store/aggregate-files.ts.
 */
import { createHash } from 'node:crypto';
import { DamagedDataError, DatasetError } from '../../errors.js';
import {
  aggregateKey, aggregateSources, checkAggregateHeader, decodeAggregate, type AggregateRef, type AggregateSection,
} from '../../store/aggregate-files.js';
import type { CfEncoding, DatasetReader, HourlyField } from '../../store/dataset-types.js';
import { HOUR_RECORD, LAYOUT_SIGNATURE } from '../kernels/kernel-layout.js';
import { rawThresholds } from '../kernels/kernel-thresholds.js';
import type { StatsKernel } from '../kernels/stats-kernel.js';

/**
 * What a record set depends on besides the data: the record layout and the raw thresholds (BelAQI classes, validity)
 * the kernel accumulates with, for these fields and encodings. A change of either makes stored records stale.
 */
export function recordsDigest(fields: readonly HourlyField[], encodings: Readonly<Partial<Record<HourlyField, CfEncoding>>>): string {
  const { table, validity } = rawThresholds(fields, encodings);
  const bytes = HOUR_RECORD.BYTES;
  const text = JSON.stringify({ layout: LAYOUT_SIGNATURE, bytes, fields, table: [...table], validity });
  return `rec1-${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
}

/** The encodings of every field a reader holds. */
export function readerEncodings(reader: DatasetReader): Partial<Record<HourlyField, CfEncoding>> {
  return Object.fromEntries(reader.fields.map((f) => [f, reader.encoding(f)]));
}

/**
 * Reads the aggregate at `ref` of `section`, checks that it sums exactly the chunks the dataset holds now, and
 * merges its records into `kernel`'s running computation. Anything else — missing, altered, written for other data
 * or another kernel, records that do not decode — is a `DamagedDataError`: never a different answer.
 */
export async function mergeAggregate(
  reader: DatasetReader, section: AggregateSection, kernel: StatsKernel, ref: AggregateRef, stored?: Uint8Array,
): Promise<void> {
  const dataset = reader.attrs.dataset;
  const key = aggregateKey(section.generation, ref);
  const bytes = stored ?? await reader.readStored(key);
  const { header, frame } = decodeAggregate(bytes, dataset, key);
  checkAggregateHeader(header, {
    dataset, ref, hours: reader.hours, recordBytes: HOUR_RECORD.BYTES, records: section.records,
    sources: aggregateSources(reader, ref, (k) => reader.storedChecksum(k)),
  }, key);
  try {
    kernel.mergeStoredRecords(frame);
  } catch (cause) {
    if (!(cause instanceof DatasetError)) throw cause;
    throw new DamagedDataError(`Dataset '${dataset}' is damaged: aggregate ${key} cannot be decoded.`, { dataset, cause });
  }
}
