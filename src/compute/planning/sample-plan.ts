/**
 * From a request to the chunks a computation reads: projects the location to the dataset's grid, applies the
 * sampling rules, and groups the sampled cells by chunk with a per-chunk cell mask.
 */
import { wgs84ToLambert72 } from '../../geo/crs.js';
import { sampleCells, sampleReach, type Sample } from '../../sampling/sampling.js';
import type { AggregateRef } from '../../store/aggregate-files.js';
import { groupCellsByChunk } from '../../store/cell-gather.js';
import { coverReach, coverWithAggregates } from './aggregate-cover.js';
import type { ComputeDataset } from '../datasets/dataset-cache.js';
import type { StatsComputation, StatsRequest } from '../compute-types.js';
import type { BlocksValue, ChunkSelection } from '../tasks/protocol.js';

/** The sample of a request, the stored aggregates that cover whole blocks of it and the chunk selections left. */
export interface SamplePlan {
  readonly sample: Sample;
  /** Chunks decoded cell by cell, in chunk order. */
  readonly chunks: ChunkSelection[];
  /** Stored aggregates merged instead of decoding their chunks (none when the dataset has no usable ones). */
  readonly aggregates: AggregateRef[];
}

/** Options of `planSample`. */
export interface PlanOptions {
  /** Use the dataset's stored aggregates where they cover the sample (default true); false decodes every chunk. */
  readonly aggregates?: boolean | undefined;
}

/** Plans the reads of `request` in `ds`; sampling errors (e.g. no outdoor cell in the radius) propagate. */
export async function planSample(ds: ComputeDataset, request: StatsRequest, options: PlanOptions = {}): Promise<SamplePlan> {
  const [x, y] = wgs84ToLambert72(request.lon, request.lat);
  const { grid } = ds.reader;
  const rule = { radius_m: request.radius_m, nationwide: ds.nationwide };
  const outdoor = await ds.outdoor.window(sampleReach(grid, x, y, rule));
  const sample = sampleCells(grid, outdoor, x, y, rule);
  return { sample, ...(await planCells(ds, sample.cells, options)) };
}

/**
 * Plans the reads of any set of cells of `ds` (flat indices, ascending; an area's mask as well as a sample): the chunk
 * selections and the stored aggregates that cover whole blocks of them.
 */
export async function planCells(ds: ComputeDataset, cells: Int32Array, options: PlanOptions = {}): Promise<Omit<SamplePlan, 'sample'>> {
  const { grid, chunk } = ds.reader;
  const chunks = groupCellsByChunk(cells, grid, chunk).map((group) => {
    const mask = new Uint8Array(chunk.rows * chunk.cols);
    for (const offset of group.offsets) mask[offset] = 1;
    return { chunkRow: group.chunkRow, chunkCol: group.chunkCol, mask };
  });
  if (options.aggregates === false || ds.aggregates === undefined) return { chunks, aggregates: [] };
  const { levels } = ds.aggregates;
  const outdoor = await ds.outdoor.window(coverReach(grid, chunk, levels, chunks));
  return coverWithAggregates({ grid, chunk, outdoor }, levels, chunks);
}

/** The result of a computation over `sample` of `ds` (the meta the envelope reports, plus the blocks). */
export function computationOf(ds: ComputeDataset, sample: Sample, blocks: BlocksValue): StatsComputation {
  return {
    dataset: ds.id,
    reference_year: ds.reader.attrs.reference_year,
    content_version: ds.version,
    sampling: sample.sampling,
    ...(sample.distance_m !== undefined ? { distance_m: sample.distance_m } : {}),
    ...(sample.radius_m !== undefined ? { radius_m: sample.radius_m } : {}),
    n_cells: sample.cells.length,
    hours: ds.reader.hours,
    generated_utc: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    blocks,
  };
}
