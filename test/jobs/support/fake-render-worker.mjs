// A rendering thread for tests of delivery until the report content lands: the real task handler
// (dist/src/reports/render-protocol.js) over small renderers that write a page and a one-page PDF naming the address.
// A content field `fakeMode` steers it: 'fail' makes the render fail as a plain error, 'crash' ends the thread.
import { renderTaskHandler } from '../../../dist/src/reports/render-protocol.js';

const esc = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function pdf(content) {
  const text = content.request.address.replace(/[^\x20-\x7e]/g, '?').replace(/[()\\]/g, '');
  const stream = `BT /F1 12 Tf 72 770 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595.28 841.89] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

export default renderTaskHandler({
  html(content) {
    if (content.fakeMode === 'crash') process.exit(70);
    if (content.fakeMode === 'fail') throw new Error('layout failed');
    const { address, lang } = content.request;
    return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Report</title></head><body><h1>${esc(address)}</h1></body></html>\n`;
  },
  async pdf(content) {
    if (content.fakeMode === 'crash') process.exit(70);
    if (content.fakeMode === 'fail') throw new Error('font missing');
    return pdf(content);
  },
});
