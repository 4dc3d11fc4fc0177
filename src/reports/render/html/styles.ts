/**
 * The inline style sheet of the HTML report: a centred A4-like page on screen, and A4 pages in print (`@page`), each
 * metric section starting a new printed page, figures and key-figure rows never split across pages. No web font and no
 * URL: the text uses DejaVu Sans where installed, else a common sans-serif.
 */
import { FONT_FAMILY, THEME } from '../../content/theme.js';

/** The CSS of every HTML report. */
export const REPORT_CSS = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:${THEME.panel};color:${THEME.ink};font-family:${FONT_FAMILY};font-size:10pt;line-height:1.45}
.report{max-width:210mm;margin:0 auto;background:${THEME.white};padding:14mm 16mm 12mm}
.masthead{border-bottom:2px solid ${THEME.accent};padding-bottom:8pt;margin-bottom:10pt}
.kicker{margin:0;color:${THEME.accent};font-size:8.5pt;letter-spacing:.04em;text-transform:uppercase}
h1{margin:2pt 0 4pt;font-size:19pt;line-height:1.2;color:${THEME.ink}}
.address{margin:0;font-size:12pt;font-weight:bold}
.generated{margin:2pt 0 0;color:${THEME.muted};font-size:8.5pt}
h2{margin:16pt 0 6pt;font-size:13.5pt;color:${THEME.accent};border-bottom:0.5pt solid ${THEME.rule};padding-bottom:2pt}
p{margin:0 0 6pt}
p.lead{font-size:9.5pt}
p.note{font-size:8.5pt;color:${THEME.muted}}
table.facts{width:100%;border-collapse:collapse;margin:2pt 0 8pt;font-size:9pt}
table.facts th{width:36%;text-align:left;font-weight:normal;color:${THEME.muted};vertical-align:top;padding:3pt 8pt 3pt 0;border-bottom:0.5pt solid ${THEME.grid}}
table.facts td{vertical-align:top;padding:3pt 0;border-bottom:0.5pt solid ${THEME.grid}}
table.facts tr{break-inside:avoid}
.fact-note{display:block;color:${THEME.muted};font-size:7.5pt}
.cards{display:flex;gap:8pt;margin:2pt 0 8pt}
.card{flex:0 1 calc((100% - 16pt) / 3);background:${THEME.panel};border-top:3pt solid ${THEME.accent};padding:6pt 8pt 7pt;break-inside:avoid}
.card h3{margin:0 0 2pt;font-size:9.5pt;color:${THEME.accent}}
.card .rating{margin:0;font-size:8.5pt;color:${THEME.muted}}
.card .rating strong{font-size:20pt;color:${THEME.ink};font-weight:bold}
.card .score{margin:0 0 3pt;font-size:8.5pt;font-weight:bold}
.card .text{margin:0;font-size:8pt;color:${THEME.ink}}
.figures{display:flex;flex-wrap:wrap;gap:10pt 14pt;margin:4pt 0 8pt}
figure{margin:0;flex:1 1 0;min-width:0;break-inside:avoid}
.figure-title{font-size:9pt;font-weight:bold;margin:0 0 3pt}
figure svg{display:block;width:100%;height:auto}
figure .legend{margin-top:4pt}
figcaption{font-size:7.5pt;color:${THEME.muted};margin-top:3pt}
ul{margin:0 0 6pt;padding-left:14pt;font-size:8.5pt}
li{margin-bottom:3pt}
.report-footer{margin-top:14pt;border-top:0.5pt solid ${THEME.rule};padding-top:4pt;font-size:7.5pt;color:${THEME.faint}}
@page{size:A4;margin:14mm 16mm}
@media print{
  body{background:${THEME.white}}
  .report{max-width:none;padding:0}
  section.new-page{break-before:page}
  h2{break-after:avoid}
}
@media (max-width:600px){.cards,.figures{flex-direction:column}.report{padding:6mm}figure{flex-basis:auto!important}}
`;
