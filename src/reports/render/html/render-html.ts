/**
 * The HTML report: one self-contained UTF-8 document (inline CSS, inline SVG figures, no script, no link, no URL of
 * any kind) that reads on screen and prints on A4 pages. A pure function of the content, safe to run in a worker.
 */
import { composeReport } from '../../content/compose/index.js';
import type { Block, Figure, ReportDocument, Section } from '../../content/document.js';
import { esc } from '../../content/figures/svg.js';
import type { ReportContent } from '../../report-types.js';
import { REPORT_CSS } from './styles.js';

function figureHtml(figure: Figure): string {
  // Each figure keeps its designed width (two charts or three maps to a row) and shrinks on narrow screens.
  return `<figure style="flex:0 1 ${figure.svg.width}pt"><div class="figure-title">${esc(figure.title)}</div>${figure.svg.markup}` +
    (figure.legend ? `<div class="legend">${figure.legend.markup}</div>` : '') +
    (figure.caption ? `<figcaption>${esc(figure.caption)}</figcaption>` : '') + '</figure>';
}

function blockHtml(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p${block.style ? ` class="${block.style}"` : ''}>${esc(block.text)}</p>`;
    case 'facts':
      return `<table class="facts"><tbody>${block.rows.map((row) =>
        `<tr><th scope="row">${esc(row.label)}</th><td>${esc(row.value)}${
          row.note ? `<span class="fact-note">${esc(row.note)}</span>` : ''}</td></tr>`).join('')}</tbody></table>`;
    case 'cards':
      return `<div class="cards">${block.cards.map((card) =>
        `<div class="card card-${card.metric}"><h3>${esc(card.title)}</h3>` +
        `<p class="rating"><strong>${esc(card.rating)}</strong> ${esc(card.outOf)}</p>` +
        `<p class="score">${esc(card.score)}</p><p class="text">${esc(card.text)}</p></div>`).join('')}</div>`;
    case 'figures':
      return `<div class="figures">${block.figures.map(figureHtml).join('')}</div>`;
    case 'list':
      return `<ul>${block.items.map((item) => `<li>${esc(item)}</li>`).join('')}</ul>`;
  }
}

function sectionHtml(section: Section): string {
  return `<section id="${esc(section.id)}"${section.newPage ? ' class="new-page"' : ''}><h2>${esc(section.title)}</h2>` +
    `${section.blocks.map(blockHtml).join('')}</section>`;
}

/** The document as HTML text. */
function documentHtml(doc: ReportDocument): string {
  return '<!DOCTYPE html>' +
    `<html lang="${doc.lang}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${esc(`${doc.title} – ${doc.address}`)}</title><style>${REPORT_CSS}</style></head>` +
    `<body><main class="report"><header class="masthead"><p class="kicker">${esc(doc.subtitle)}</p>` +
    `<h1>${esc(doc.title)}</h1><p class="address">${esc(doc.address)}</p><p class="generated">${esc(doc.generated)}</p></header>` +
    doc.sections.map(sectionHtml).join('') +
    `<footer class="report-footer">${esc(doc.footer)} · ${esc(doc.generated)}</footer></main></body></html>`;
}

/** The HTML report of `content`, as UTF-8 bytes. */
export function renderReportHtml(content: ReportContent): Uint8Array {
  return new TextEncoder().encode(documentHtml(composeReport(content)));
}
