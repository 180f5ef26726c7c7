import type { SpreadsheetQuoting } from './spreadsheet-quote.js';

/**
 * CSV text (RFC 4180) of rows of cells: cells joined by `,`, rows ended by `\n`, a cell quoted when it
 * holds a comma, a quote, CR or LF (its quotes doubled). Exactly what csv-stringify writes for the same
 * cells with its defaults (csv-rows.unit.test.ts proves it over generated rows), without the per-cell
 * objects that made csv-stringify half of a Shopify export's CPU, most of it in the garbage collector
 * (docs/exports.md, "Speed"). Parsing stays with csv-parse: reading CSV has the hard cases, writing it has this one.
 *
 * The one place every cell of a CSV export passes through: a text cell is written as `quoting.quote` makes
 * it (a leading apostrophe before what a spreadsheet would run as a formula: src/platforms/spreadsheet-quote.ts);
 * a number is a number column's value and is written as it is (`-5` stays `-5`).
 */
export type CsvCell = string | number;

const NEEDS_QUOTES = /[",\r\n]/;

const cell = (value: string) => (NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** The rows' text, each row ended by a line break. */
export function csvRows(rows: readonly (readonly CsvCell[])[], quoting: SpreadsheetQuoting): string {
  let text = '';
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      if (i > 0) text += ',';
      const value = row[i];
      if (typeof value === 'number') text += String(value);
      // most cells of a product's variant rows are empty
      else if (value !== '') text += cell(quoting.quote(value));
    }
    text += '\n';
  }
  return text;
}
