/**
 * Spreadsheet safety (docs/exports.md, docs/csv-import.md; OWASP's advice against CSV injection): a text
 * cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is something Excel or Sheets would
 * run as a formula, so every CSV export writes it with a leading apostrophe, and every CSV import drops
 * that one apostrophe again. The two sides are the same rule, so a round trip keeps every string:
 *
 * - import: a cell that is one or more apostrophes followed by a quoted character loses its first one;
 * - export: a text that begins with a formula character, or that the import would read as quoted (an
 *   apostrophe run followed by a quoted character: `'=x`), gets one, so the import gives it back as it was.
 *
 * The quoted characters are the formula characters, and for Shopify's customer and order files also digits
 * and `(`: Shopify's own export puts an apostrophe before zip codes, phone numbers and ids there (`'02928`,
 * `'(613) 555-0101`). Product files keep an apostrophe before a digit (a title `'90s Tee` stays so).
 * `'+1…` is the same thing in both: the text `+1…` (docs/decisions.md).
 */

/** How one layout's cells are quoted for spreadsheets: the export writes `quote(text)`, the import reads `unquote(cell)`. */
export interface SpreadsheetQuoting {
  /** a text cell as an export writes it (numbers are never quoted: they are written as numbers) */
  quote(text: string): string;
  /** an import's cell without the one apostrophe an export put before it */
  unquote(cell: string): string;
}

const FORMULA_START = /^[=+\-@\t\r]/;

function quotingOf(quoted: RegExp): SpreadsheetQuoting {
  return {
    quote: (text) => (FORMULA_START.test(text) || quoted.test(text) ? `'${text}` : text),
    unquote: (cell) => (quoted.test(cell) ? cell.slice(1) : cell),
  };
}

/** Every layout's, unless it says otherwise: the formula characters only. */
export const FORMULA_QUOTING = quotingOf(/^'+[=+\-@\t\r]/);

/** Shopify's customer and order files: the formula characters, digits and `(` (zips, phones, ids). */
export const NUMBER_QUOTING = quotingOf(/^'+[=+\-@\t\r\d(]/);
