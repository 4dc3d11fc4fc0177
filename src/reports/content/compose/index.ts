/** Composes the document of a report (document.ts) from its content, in the content's language. */
import { readReportContent } from '../content-model.js';
import type { ReportDocument, Section } from '../document.js';
import type { ReportContent } from '../../report-types.js';
import { airSection } from './air.js';
import { composeContext } from './context.js';
import { locationSection, methodSection, summarySection } from './overview.js';
import { surroundingsSection } from './surroundings.js';
import { thermalSection } from './thermal.js';
import { windSection } from './wind.js';

/**
 * The report as sections: location, summary and the surroundings map (the first page: where, how good, what is
 * around), then one section per metric (each on its own page), then method and sources.
 */
export function composeReport(content: ReportContent): ReportDocument {
  const ctx = composeContext(readReportContent(content));
  const { c, t, f } = ctx;
  const sections: Section[] = [
    locationSection(ctx),
    summarySection(ctx),
    surroundingsSection(ctx),
    ...[airSection(ctx), windSection(ctx), thermalSection(ctx)].filter((s): s is Section => s !== undefined),
    methodSection(ctx),
  ];
  return {
    lang: c.request.lang,
    title: t.title,
    subtitle: t.subtitle,
    address: c.location.address,
    generated: t.generated(f.dateTime(c.generatedUtc)),
    footer: t.footer,
    page: t.page,
    sections,
  };
}
