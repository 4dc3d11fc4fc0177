// The small, real documents the report test doubles write from a report's content: an HTML page naming the address
// and language, and a minimal one-page A4 PDF naming the address (ASCII only). Plain JavaScript, so that both the
// in-process renderer double (fake-report.ts) and the rendering thread (fake-render-worker.mjs) write the same bytes.

const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The HTML the doubles write: a whole page naming the address and language. */
export function fakeHtml(content) {
  const { address, lang } = content.request;
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Report</title></head><body><h1>${escapeHtml(address)}</h1></body></html>\n`;
}

/** A minimal, well-formed one-page A4 PDF naming the address (ASCII only). */
export function fakePdf(content) {
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
