/**
 * The PDF fonts: DejaVu Sans regular and bold, from the pinned npm package `dejavu-fonts-ttf` (Bitstream Vera licence
 * with DejaVu changes in the public domain; redistributable), so a server needs no operating-system font. DejaVu Sans
 * covers every character a report prints (subscripts ₂ ₅ ₁ ₀, ≤, µ, °, accented French and Dutch letters, the narrow
 * no-break space of French numbers), which the PDF standard fonts do not. Read once per thread.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** Names the fonts are registered under in each PDF document. */
export const PDF_FONTS = Object.freeze({ regular: 'DejaVuSans', bold: 'DejaVuSans-Bold' });

const FILES: Readonly<Record<keyof typeof PDF_FONTS, string>> = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
};

let loaded: Readonly<Record<keyof typeof PDF_FONTS, Buffer>> | undefined;

/** The TrueType files of the fonts, read on first use and kept. */
export function pdfFontFiles(): Readonly<Record<keyof typeof PDF_FONTS, Buffer>> {
  if (loaded === undefined) {
    const require = createRequire(import.meta.url);
    loaded = { regular: readFileSync(require.resolve(FILES.regular)), bold: readFileSync(require.resolve(FILES.bold)) };
  }
  return loaded;
}
