/**
 * The report's own layout colours and type sizes (text, rules, panels, neutral chart bars), shared by the HTML and PDF
 * renderers. Colours that stand for data — BelAQI, wind and UTCI classes, buildings, missing data — never come from
 * here: they are read from the scales module (src/scales/), as every map and legend of the service does.
 */

/** Layout colours, `#RRGGBB`. */
export const THEME = Object.freeze({
  ink: '#1F2933',
  muted: '#52606D',
  /** The lightest text (the footer): still 4.5:1 on white and on the panel, as WCAG AA asks of small text. */
  faint: '#616E7C',
  rule: '#CBD2D9',
  grid: '#E4E7EB',
  panel: '#F5F7FA',
  accent: '#1D4E89',
  /** Neutral bars of charts whose bars do not stand for a class (monthly good-air share, monthly wind). */
  bar: '#3E7CB1',
  white: '#FFFFFF',
});

/** Font family of charts and pages: DejaVu Sans (shipped with the PDF renderer), then common fallbacks in browsers. */
export const FONT_FAMILY = "'DejaVu Sans', Verdana, 'Segoe UI', Arial, sans-serif";
