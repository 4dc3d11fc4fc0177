/**
 * Warms a rendering thread up before its first report: lays out a one-page document with every kind of block the
 * reports use, including a map-like figure of a few thousand rectangles, so the fonts are parsed and PDFKit,
 * fontkit's layout and svg-to-pdfkit are compiled by the engine before a client waits on them. Without it the first
 * PDF of a thread took 0.9–1.5 s instead of about 0.2 s, longer than a status poll waits for it.
 */
import type { ReportDocument } from '../../content/document.js';
import { documentPdf } from './render-pdf.js';

/** A figure of `k` × `k` cells in alternating colours, one path per row run, as the surroundings map draws. */
function mapLike(k: number): string {
  const runs: string[] = [];
  for (let r = 0; r < k; r++) for (let c = 0; c < k; c++) runs.push(`M${c * 3} ${r * 3}H${c * 3 + 3}V${r * 3 + 3}H${c * 3}Z`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${k * 3}" height="${k * 3}"><path d="${runs.join('')}" fill="#3b7"/>`
    + `<text x="2" y="10" font-size="7">Warm-up ₂ ≤ µ °C</text></svg>`;
}

const WARM_UP_DOCUMENT: ReportDocument = {
  lang: 'fr', title: 'Rapport', subtitle: 'Échauffement', address: 'Grand-Place 1, 1000 Bruxelles', generated: 'Généré',
  footer: 'svc-api', page: (n, of) => `Page ${n} sur ${of}`,
  sections: [{
    id: 'warm-up', title: 'Qualité de l’air', newPage: false,
    blocks: [
      { kind: 'paragraph', text: 'NO₂ ≤ 40 µg/m³, 26 °C, 8,8 / 10.', style: 'lead' },
      { kind: 'facts', rows: [{ label: 'Part de bon air', value: '62,4 %', note: 'sur l’année' }] },
      { kind: 'cards', cards: [{ metric: 'air', title: 'Air', rating: '8,8', outOf: '/ 10', score: 'Score 8,4', text: 'Très bon' }] },
      { kind: 'figures', figures: [{ title: 'Carte', svg: { markup: mapLike(40), width: 120, height: 120 }, caption: 'Légende' }] },
      { kind: 'list', items: ['Un', 'Deux'] },
    ],
  }],
};

/** Renders the warm-up document once (its bytes are thrown away). */
export async function warmUpPdfRenderer(): Promise<void> {
  await documentPdf(WARM_UP_DOCUMENT, new Date(0).toISOString());
}
