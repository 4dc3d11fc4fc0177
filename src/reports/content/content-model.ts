/**
 * The content of one report (version 1): everything it shows, gathered once into plain JSON (content-source.ts) and
 * stored with the job, so the HTML now and the PDF later are drawn from the same numbers. Nothing here is language-
 * dependent: texts are chosen when rendering (i18n/), numbers are the statistics as the API publishes them.
 */
import type { StatMetric } from '../../cities/city-types.js';
import type { SamplingRule, SurroundingsGrid } from '../../compute/compute-types.js';
import { ValidationError } from '../../errors.js';
import type { AirBlock, ThermalBlock, WindBlock } from '../../stats/blocks.js';
import { REPORT_LANGS, type ReportContent, type ReportRequest } from '../report-types.js';

/** Where the report looks and how the statistics sampled it. */
export type ReportLocation = {
  readonly address: string;
  readonly lat: number;
  readonly lon: number;
  /** The covered city the location lies in; null for a nationwide answer. */
  readonly city: { readonly id: string; readonly name: string } | null;
  /** `brussels_extended` (street-level model) or `belgium_lowres` (nationwide). */
  readonly dataset: string;
  /** Whether the dataset samples the cell containing the location whatever the radius (the nationwide one). */
  readonly containingCell: boolean;
  readonly resolutionM: number;
  readonly referenceYear: number;
  readonly sampling: SamplingRule;
  readonly nCells: number;
  readonly hours: number;
  /** Nearest-outdoor sampling: distance to the nearest outdoor cell, metres. */
  readonly distanceM?: number;
  /** Radius sampling: the radius used, metres. */
  readonly radiusM?: number;
};

/** Why a metric block is missing: the key's metric scope excludes it, or the data do not model it there. */
export type MetricAbsence = 'not_in_scope' | 'not_modelled';

/** The statistics blocks, exactly as `GET /historical/stats` returns them, and when they were computed. */
export type ReportStatistics = {
  readonly generatedUtc: string;
  readonly air?: AirBlock;
  readonly wind?: WindBlock;
  readonly thermal?: ThermalBlock;
};

/** Version 1 of the report content; a `ReportContent` with every member known. */
export type ReportContentV1 = {
  readonly version: 1;
  readonly request: ReportRequest;
  readonly generatedUtc: string;
  readonly location: ReportLocation;
  /** Metric blocks in the report, in the order air, wind, thermal. */
  readonly metrics: readonly StatMetric[];
  readonly statistics: ReportStatistics;
  /** Metrics not in the report and why, in the order air, wind, thermal. */
  readonly absent: readonly { readonly metric: StatMetric; readonly reason: MetricAbsence }[];
  /** The surroundings map's grid; its layers are limited to the report's metrics. */
  readonly surroundings: SurroundingsGrid;
  /** Attribution of the covered-city catalogue and of the dataset. */
  readonly attribution: { readonly catalogue: string; readonly dataset: string };
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Narrows stored content to version 1, checking the members the renderers rely on; a ValidationError names the first
 * one that is missing or malformed (content from another version, or damaged).
 */
export function readReportContent(content: ReportContent): ReportContentV1 {
  const c = content as unknown as Record<string, unknown>;
  const fail = (what: string): never => {
    throw new ValidationError(`Report content is not version 1 content: ${what}.`);
  };
  if (c.version !== 1) fail(`version is ${JSON.stringify(c.version)}`);
  if (!isObject(c.request) || !(REPORT_LANGS as readonly unknown[]).includes(c.request.lang)) fail('request.lang is missing or unknown');
  if (typeof c.generatedUtc !== 'string' || Number.isNaN(Date.parse(c.generatedUtc))) fail('generatedUtc is not a date');
  if (!isObject(c.location) || typeof c.location.address !== 'string' || typeof c.location.lat !== 'number') fail('location');
  if (!Array.isArray(c.metrics) || !isObject(c.statistics)) fail('metrics or statistics');
  const stats = c.statistics as Record<string, unknown>;
  for (const m of c.metrics as unknown[]) if (typeof m !== 'string' || !isObject(stats[m])) fail(`statistics.${String(m)}`);
  if (!Array.isArray(c.absent)) fail('absent');
  if (!isObject(c.surroundings) || !Array.isArray(c.surroundings.cover)) fail('surroundings');
  if (!isObject(c.attribution)) fail('attribution');
  return content as unknown as ReportContentV1;
}
