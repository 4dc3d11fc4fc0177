/** Types of svg-to-pdfkit 0.1.8 (the package ships none): draws an SVG string into a PDFKit document. */
declare module 'svg-to-pdfkit' {
  /** Options of one drawing. */
  interface SvgToPdfOptions {
    width?: number;
    height?: number;
    /** Treat SVG user units as points (default: CSS pixels, 0.75 pt). */
    assumePt?: boolean;
    preserveAspectRatio?: string;
    /** Picks the registered font for a font-family; may ask for faux bold or italic. */
    fontCallback?: (family: string, bold: boolean, italic: boolean, options: { fauxBold?: boolean; fauxItalic?: boolean }) => string;
    warningCallback?: (message: string) => void;
  }
  /** Draws `svg` with its top-left corner at (x, y). */
  function SVGtoPDF(doc: PDFKit.PDFDocument, svg: string, x: number, y: number, options?: SvgToPdfOptions): void;
  export default SVGtoPDF;
}
