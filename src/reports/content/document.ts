/**
 * A report as a language-resolved document: sections of blocks (paragraphs, key figures, rating cards, figures),
 * composed once from the content (compose/) and laid out by each renderer (html/, pdf/). Both renderers walk the same
 * blocks, so the HTML and the PDF say the same thing in the same order.
 */
import type { StatMetric } from '../../cities/city-types.js';
import type { Svg } from './figures/svg.js';
import type { ReportLang } from '../report-types.js';

/** One key figure: a label, its value and an optional note in smaller type. */
export interface FactRow {
  readonly label: string;
  readonly value: string;
  readonly note?: string;
}

/** A rating card of the summary. */
export interface RatingCard {
  readonly metric: StatMetric;
  readonly title: string;
  /** The rating as written ("8,8"). */
  readonly rating: string;
  readonly outOf: string;
  /** Score line ("Score 8.4 / 10, Very good"). */
  readonly score: string;
  readonly text: string;
}

/** A figure: title, drawing, caption. */
export interface Figure {
  readonly title: string;
  readonly svg: Svg;
  readonly caption?: string;
  /** A legend drawn under the figure. */
  readonly legend?: Svg;
}

/** The building blocks of a section. */
export type Block =
  | { readonly kind: 'paragraph'; readonly text: string; readonly style?: 'lead' | 'note' }
  | { readonly kind: 'facts'; readonly rows: readonly FactRow[] }
  | { readonly kind: 'cards'; readonly cards: readonly RatingCard[] }
  | { readonly kind: 'figures'; readonly figures: readonly Figure[] }
  | { readonly kind: 'list'; readonly items: readonly string[] };

/** A titled section; `newPage` asks paged output to start it on a new page. */
export interface Section {
  readonly id: string;
  readonly title: string;
  readonly newPage: boolean;
  readonly blocks: readonly Block[];
}

/** The whole report, ready to lay out. */
export interface ReportDocument {
  readonly lang: ReportLang;
  readonly title: string;
  readonly subtitle: string;
  /** The address the report describes (the heading line under the title). */
  readonly address: string;
  /** "Generated 24 November 2026 at 06:54". */
  readonly generated: string;
  /** Running footer text. */
  readonly footer: string;
  /** Writes "Page n of m". */
  readonly page: (n: number, of: number) => string;
  readonly sections: readonly Section[];
}
