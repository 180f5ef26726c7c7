/**
 * CSV text (RFC 4180) of rows of string cells: cells joined by `,`, rows ended by `\n`, a cell quoted when it
 * holds a comma, a quote, CR or LF (its quotes doubled). Exactly what csv-stringify writes for string cells
 * with its defaults (csv-rows.unit.test.ts proves it over generated rows), without the per-cell objects that
 * made csv-stringify half of a Shopify export's CPU, most of it in the garbage collector (docs/exports.md,
 * "Speed"). Parsing stays with csv-parse: reading CSV has the hard cases, writing it has this one.
 */
const NEEDS_QUOTES = /[",\r\n]/;

const cell = (value: string) => (NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** The rows' text, each row ended by a line break. */
export function csvRows(rows: readonly (readonly string[])[]): string {
  let text = '';
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      if (i > 0) text += ',';
      // most cells of a product's variant rows are empty
      if (row[i] !== '') text += cell(row[i]);
    }
    text += '\n';
  }
  return text;
}
