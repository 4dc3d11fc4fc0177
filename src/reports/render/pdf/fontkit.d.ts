/** The part of fontkit 2 (the font engine PDFKit uses; it ships no types) that the PDF renderer calls. */
declare module 'fontkit' {
  /** A parsed font; PDFKit accepts it wherever it accepts font bytes. */
  interface Font {
    layout(text: string): unknown;
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  /** Parses a TrueType/OpenType font from its bytes. */
  export function create(buffer: Uint8Array): Font;
}
