/**
 * Lays out a report's blocks on A4 pages with PDFKit: a cursor that moves down the page, measures each block before
 * drawing it and starts a new page when it would not fit (facts break between rows, figures and cards never split).
 * Text is real text in DejaVu Sans; figures are the same SVG the HTML inlines, drawn with svg-to-pdfkit.
 */
import type PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import type { Block, FactRow, Figure, RatingCard } from '../../content/document.js';
import type { Svg } from '../../content/figures/svg.js';
import { LAYOUT } from '../../content/compose/context.js';
import { THEME } from '../../content/theme.js';
import { PDF_FONTS } from './fonts.js';

/** Type sizes, points. */
export const TYPE = Object.freeze({ body: 9, lead: 9.5, note: 8.5, small: 7.5, h2: 13.5, h3: 9.5, figureTitle: 9 });

const LINE_GAP = 1.6;
const TOP = 48;
const BOTTOM = 54;
const W = LAYOUT.contentWidth;
const X = LAYOUT.margin;
/** Every rating card is a third of the text width, however many metrics the report has. */
const CARD_WIDTH = (W - 16) / 3;

type Doc = InstanceType<typeof PDFDocument>;

/**
 * Text as the PDF lays it out: a word joiner after a slash between letters, so units such as m/s and µg/m³ never
 * break across lines (PDFKit's line breaker allows a break after a slash); the joiner has no width and no glyph.
 */
export function unbreakableUnits(text: string): string {
  return text.replace(/(\p{L})\/(?=[\p{L}µ])/gu, '$1/\u2060');
}

/** A cursor over the pages of one document. */
export class PdfWriter {
  readonly doc: Doc;
  y = TOP;
  /** SVG drawing warnings (an unsupported element would draw wrongly: tests assert none). */
  readonly warnings: string[] = [];

  constructor(doc: Doc) {
    this.doc = doc;
  }

  /** Space left on the current page. */
  get remaining(): number {
    return LAYOUT.pageHeight - BOTTOM - this.y;
  }

  /** Starts a new page unless the cursor is already at the top of one. */
  newPage(): void {
    if (this.y <= TOP + 0.5) return;
    this.doc.addPage();
    this.y = TOP;
  }

  /** Starts a new page when `height` does not fit in the space left. */
  ensure(height: number): void {
    if (height > this.remaining) this.newPage();
  }

  /** Sets font, size and colour. */
  style(size: number, bold = false, color: string = THEME.ink): this {
    this.doc.font(bold ? PDF_FONTS.bold : PDF_FONTS.regular).fontSize(size).fillColor(color);
    return this;
  }

  /** Height of `text` at the current style in `width`. */
  measure(text: string, width: number): number {
    return this.doc.heightOfString(unbreakableUnits(text), { width, lineGap: LINE_GAP });
  }

  /** Draws `text` at (x, y) in `width` with the current style; returns its height. */
  write(text: string, x: number, y: number, width: number): number {
    const h = this.measure(text, width);
    this.doc.text(unbreakableUnits(text), x, y, { width, lineGap: LINE_GAP });
    return h;
  }

  /** Draws an SVG figure with its top-left corner at (x, y), at its own size. */
  svg(svg: Svg, x: number, y: number): void {
    SVGtoPDF(this.doc, svg.markup, x, y, {
      width: svg.width,
      height: svg.height,
      assumePt: true,
      fontCallback: (_family, bold) => (bold ? PDF_FONTS.bold : PDF_FONTS.regular),
      warningCallback: (message) => this.warnings.push(message),
    });
  }

  /** A section title with a rule under it, kept with at least `keep` points of what follows. */
  heading(title: string, keep: number): void {
    this.style(TYPE.h2, true, THEME.accent);
    const h = this.measure(title, W);
    this.ensure(10 + h + 6 + keep);
    if (this.y > TOP + 0.5) this.y += 10;
    this.write(title, X, this.y, W);
    this.y += h + 2;
    this.doc.moveTo(X, this.y).lineTo(X + W, this.y).lineWidth(0.5).strokeColor(THEME.rule).stroke();
    this.y += 6;
  }

  /** Draws one block at the cursor. */
  block(block: Block): void {
    switch (block.kind) {
      case 'paragraph': {
        const size = block.style === 'lead' ? TYPE.lead : block.style === 'note' ? TYPE.note : TYPE.body;
        this.style(size, false, block.style === 'note' ? THEME.muted : THEME.ink);
        this.ensure(this.measure(block.text, W));
        this.y += this.write(block.text, X, this.y, W) + 6;
        return;
      }
      case 'facts':
        for (const row of block.rows) this.fact(row);
        this.y += 8;
        return;
      case 'cards':
        this.cards(block.cards);
        return;
      case 'figures':
        this.figures(block.figures);
        return;
      case 'list':
        for (const item of block.items) {
          this.style(TYPE.note);
          const h = this.measure(item, W - 12);
          this.ensure(h);
          this.doc.text('•', X + 2, this.y, { lineBreak: false });
          this.y += this.write(item, X + 12, this.y, W - 12) + 3;
        }
        this.y += 4;
        return;
    }
  }

  /**
   * What a heading must be kept with: the first block's unbreakable part, and when that is an introductory paragraph,
   * the block after it too (a heading and its introduction are not left alone at the foot of a page).
   */
  keepHeight(blocks: readonly Block[]): number {
    const first = (block: Block | undefined): number => {
      if (block === undefined) return 0;
      if (block.kind === 'figures') return this.figuresHeight(block.figures);
      if (block.kind === 'cards') return this.cardsHeight(block.cards);
      if (block.kind === 'paragraph') {
        this.style(block.style === 'lead' ? TYPE.lead : TYPE.note);
        return this.measure(block.text, W) + 6;
      }
      return 40;
    };
    const head = first(blocks[0]);
    return blocks[0]?.kind === 'paragraph' && blocks.length > 1 ? head + first(blocks[1]) : head;
  }

  #factHeights(row: FactRow): { label: number; value: number; note: number } {
    const labelW = W * 0.36 - 8;
    this.style(TYPE.body);
    const label = this.measure(row.label, labelW);
    const value = this.measure(row.value, W * 0.64);
    this.style(TYPE.small);
    const note = row.note ? this.measure(row.note, W * 0.64) : 0;
    return { label, value, note };
  }

  fact(row: FactRow): void {
    const h = this.#factHeights(row);
    const height = Math.max(h.label, h.value + h.note) + 7;
    this.ensure(height);
    const x2 = X + W * 0.36;
    this.style(TYPE.body, false, THEME.muted).write(row.label, X, this.y + 3, W * 0.36 - 8);
    this.style(TYPE.body).write(row.value, x2, this.y + 3, W * 0.64);
    if (row.note) this.style(TYPE.small, false, THEME.muted).write(row.note, x2, this.y + 3 + h.value, W * 0.64);
    this.y += height;
    this.doc.moveTo(X, this.y).lineTo(X + W, this.y).lineWidth(0.5).strokeColor(THEME.grid).stroke();
  }

  cardsHeight(cards: readonly RatingCard[]): number {
    const w = CARD_WIDTH - 16;
    return Math.max(0, ...cards.map((card) => {
      const title = this.style(TYPE.h3, true).measure(card.title, w);
      const score = this.style(TYPE.note, true).measure(card.score, w);
      const text = this.style(8).measure(card.text, w);
      return 9 + title + 26 + score + 3 + text + 7;
    }));
  }

  cards(cards: readonly RatingCard[]): void {
    const height = this.cardsHeight(cards);
    this.ensure(height + 8);
    const cw = CARD_WIDTH;
    cards.forEach((card, i) => {
      const x = X + i * (cw + 8);
      this.doc.rect(x, this.y, cw, height).fill(THEME.panel);
      this.doc.rect(x, this.y, cw, 3).fill(THEME.accent);
      let y = this.y + 9;
      y += this.style(TYPE.h3, true, THEME.accent).write(card.title, x + 8, y, cw - 16);
      this.style(20, true);
      const ratingW = this.doc.widthOfString(card.rating);
      this.doc.text(card.rating, x + 8, y + 1, { lineBreak: false });
      this.style(TYPE.note, false, THEME.muted);
      this.doc.text(card.outOf, x + 8 + ratingW + 3, y + 11, { lineBreak: false });
      y += 26;
      y += this.style(TYPE.note, true).write(card.score, x + 8, y, cw - 16) + 3;
      this.style(8).write(card.text, x + 8, y, cw - 16);
    });
    this.y += height + 8;
  }

  #figureHeight(figure: Figure): number {
    this.style(TYPE.figureTitle, true);
    let h = this.measure(figure.title, figure.svg.width) + 3 + figure.svg.height;
    if (figure.legend) h += 4 + figure.legend.height;
    if (figure.caption) h += 3 + this.style(TYPE.small).measure(figure.caption, figure.svg.width);
    return h;
  }

  figuresHeight(figures: readonly Figure[]): number {
    return Math.max(0, ...figures.map((f) => this.#figureHeight(f)));
  }

  figures(figures: readonly Figure[]): void {
    const height = this.figuresHeight(figures);
    this.ensure(height);
    const total = figures.reduce((sum, f) => sum + f.svg.width, 0);
    const gap = figures.length > 1 ? Math.min(24, (W - total) / (figures.length - 1)) : 0;
    let x = X;
    for (const figure of figures) {
      let y = this.y;
      y += this.style(TYPE.figureTitle, true).write(figure.title, x, y, figure.svg.width) + 3;
      this.svg(figure.svg, x, y);
      y += figure.svg.height;
      if (figure.legend) {
        this.svg(figure.legend, x, y + 4);
        y += 4 + figure.legend.height;
      }
      if (figure.caption) this.style(TYPE.small, false, THEME.muted).write(figure.caption, x, y + 3, figure.svg.width);
      x += figure.svg.width + gap;
    }
    this.y += height + 10;
  }
}

/** The page geometry the writer uses (for the renderer's masthead and footer). */
export const PAGE = Object.freeze({ top: TOP, bottom: BOTTOM, x: X, width: W });
